/*
 * fuzz_options.cpp - every parser of option text: the driver's options
 * (driver/ogrvsgpuoptions.cpp: statement 'KEY=VALUE' strings, open options
 * and VSGPU_* configuration options, with their precedence), the options
 * a statement's table function carries (driver/dialect/tablefunc.c), and
 * the engine's execution mode parser (vsg_exec_mode_parse).
 *
 * The input is lines; a line's first two bytes say what it is:
 *   "O:" an open option, "C:" a configuration option (only VSGPU_* keys
 *   are set; they are unset again after the run), "Q:" a statement whose
 *   table-function options are added to the statement options; any other
 *   line is a statement option. Then ResolveOptions, ResolveSqlFallback and
 *   ResolveDialect run, and a resolved set is checked against its ranges.
 */
#include "ogr_vsgpu.h"

#include "cpl_error.h"
#include "cpl_minixml.h"
#include "cpl_string.h"

#include <string>
#include <vector>

#include "fuzz_check.h"

namespace
{

void Init()
{
    static bool done = false;
    if (done)
        return;
    done = true;
    CPLSetErrorHandler(CPLQuietErrorHandler);
    /* The driver's XML is built once and kept: build it before the first
     * run so that it never reads as a leak of one. */
    CPLXMLNode *xml = CPLParseXMLString(vsgpu::OpenOptionListXML());
    FUZZ_CHECK(xml != nullptr);
    CPLDestroyXMLNode(xml);
    vsgpu::Options o;
    (void)vsgpu::ResolveOptions(nullptr, 0, nullptr, &o);
}

void CheckResolved(const vsgpu::Options &o)
{
    FUZZ_CHECK(o.num_threads >= 0);
    FUZZ_CHECK(o.batch_size >= 1);
    FUZZ_CHECK(o.gpu.device >= 0);
    FUZZ_CHECK(o.gpu.pool_limit >= 0);
    FUZZ_CHECK(o.gpu_min_rows >= -1);
    FUZZ_CHECK(o.invalid >= VSG_INVALID_REPAIR && o.invalid <= VSG_INVALID_ERROR);
    FUZZ_CHECK(o.mode >= VSG_MODE_AUTO && o.mode <= VSG_MODE_GPU);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Init();
    std::string text(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> stmt;
    CPLStringList open;
    std::vector<std::string> config_keys;

    size_t start = 0;
    while (start <= text.size())
    {
        size_t nl = text.find('\n', start);
        if (nl == std::string::npos)
            nl = text.size();
        std::string line = text.substr(start, nl - start);
        start = nl + 1;
        line = line.c_str(); /* a C string ends at its first NUL */
        if (line.empty())
            continue;
        const std::string body = line.size() >= 2 ? line.substr(2) : "";
        if (line.rfind("O:", 0) == 0)
        {
            open.AddString(body.c_str());
        }
        else if (line.rfind("C:", 0) == 0)
        {
            char *key = nullptr;
            const char *value = CPLParseNameValue(body.c_str(), &key);
            if (key && value && STARTS_WITH(key, "VSGPU_"))
            {
                CPLSetConfigOption(key, value);
                config_keys.push_back(key);
            }
            CPLFree(key);
        }
        else if (line.rfind("Q:", 0) == 0)
        {
            vsg_statement *s = nullptr;
            if (vsg_sql_parse(body.c_str(), &s, nullptr) == VSG_PARSE_OK)
            {
                for (int k = 0; k < s->n_options; ++k)
                    stmt.push_back(s->options[k]);
                vsg_statement_free(s);
            }
        }
        else
        {
            stmt.push_back(line);
        }
    }

    std::vector<char *> stmt_ptrs;
    for (std::string &s : stmt)
    {
        stmt_ptrs.push_back(&s[0]);
        vsg_exec_mode m = VSG_MODE_AUTO;
        if (vsg_exec_mode_parse(s.c_str(), &m) == 0)
            FUZZ_CHECK(m >= VSG_MODE_AUTO && m <= VSG_MODE_GPU);
        char *key = nullptr;
        CPLParseNameValue(s.c_str(), &key);
        if (key)
            (void)vsgpu::IsOpenOption(key);
        CPLFree(key);
    }

    vsgpu::Options o;
    if (vsgpu::ResolveOptions(stmt_ptrs.empty() ? nullptr : stmt_ptrs.data(),
                              static_cast<int>(stmt_ptrs.size()), open.List(),
                              &o))
        CheckResolved(o);
    bool b = false;
    (void)vsgpu::ResolveSqlFallback(open.List(), &b);
    (void)vsgpu::ResolveDialect(open.List(), &b);

    for (const std::string &k : config_keys)
        CPLSetConfigOption(k.c_str(), nullptr);
    CPLErrorReset();
    return 0;
}
