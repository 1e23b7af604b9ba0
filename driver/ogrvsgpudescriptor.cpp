/*
 * ogrvsgpudescriptor.cpp - the .vsgpu descriptor: a small text file that
 * names a source and the open options of the VSGPU: dataset, so that
 * programs that open files from a dialog (QGIS) can open a VSGPU dataset,
 * options included. Format in docs/usage.md ("The .vsgpu descriptor").
 *
 * GDAL asks every driver's Identify about every file a program browses:
 * IsDescriptor looks at the extension first and then only at the header
 * bytes GDALOpenInfo has already read. Nothing is read here until Open.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"
#include "cpl_vsi.h"

#include <cctype>

namespace vsgpu
{

namespace
{

constexpr const char *kExtension = "vsgpu";
/* A descriptor names one source and a few options: anything longer is
 * not one, and is not read into memory. */
constexpr size_t kMaxBytes = 64 * 1024;

bool HasExtension(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    return dot != nullptr && (slash == nullptr || dot > slash) &&
           EQUAL(dot + 1, kExtension);
}

/* Skips a UTF-8 byte order mark, which some editors write. */
const char *SkipBom(const char *s)
{
    return STARTS_WITH(s, "\xEF\xBB\xBF") ? s + 3 : s;
}

bool IsSignature(const char *first_line)
{
    return STARTS_WITH_CI(first_line, "# VSGPU") ||
           STARTS_WITH_CI(first_line, "SOURCE=");
}

std::string Trim(const std::string &s)
{
    size_t b = 0;
    size_t e = s.size();
    while (b < e && isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return s.substr(b, e - b);
}

/* A source is taken as written when it is absolute, a /vsi path, or a
 * connection string with a PREFIX: (PG:, WFS:, VSGPU: is refused later);
 * otherwise it is relative to the descriptor's folder, as a .vrt's
 * relativeToVRT sources are, so the pair can be moved together. */
bool IsAsWritten(const std::string &src)
{
    if (src.empty() || src[0] == '/' || STARTS_WITH(src.c_str(), "/vsi"))
        return true;
    size_t i = 0;
    while (i < src.size() &&
           (isalnum(static_cast<unsigned char>(src[i])) || src[i] == '_'))
        ++i;
    return i > 0 && i < src.size() && src[i] == ':';
}

std::string FolderOf(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == nullptr)
        return ".";
    if (slash == path)
        return "/";
    return std::string(path, slash);
}

bool LineError(const char *path, int line, const char *what)
{
    CPLError(CE_Failure, CPLE_OpenFailed,
             "VSGPU: %s, line %d: %s (expected SOURCE=<dataset>, "
             "SRC_<name>=<value> or a VSGPU open option, see docs/usage.md)",
             path, line, what);
    return false;
}

}  // namespace

bool IsDescriptor(GDALOpenInfo *info)
{
    if (info == nullptr || info->pszFilename == nullptr ||
        !HasExtension(info->pszFilename) || info->nHeaderBytes == 0 ||
        info->pabyHeader == nullptr)
        return false;
    return IsSignature(
        SkipBom(reinterpret_cast<const char *>(info->pabyHeader)));
}

bool ReadDescriptor(const char *path, std::string *source,
                    CPLStringList *options)
{
    VSILFILE *fp = VSIFOpenL(path, "rb");
    if (fp == nullptr)
    {
        CPLError(CE_Failure, CPLE_OpenFailed, "VSGPU: cannot read %s", path);
        return false;
    }
    std::string text(kMaxBytes + 1, '\0');
    const size_t n = VSIFReadL(&text[0], 1, text.size(), fp);
    VSIFCloseL(fp);
    if (n > kMaxBytes)
    {
        CPLError(CE_Failure, CPLE_OpenFailed,
                 "VSGPU: %s is larger than %u bytes: not a .vsgpu descriptor",
                 path, static_cast<unsigned>(kMaxBytes));
        return false;
    }
    text.resize(n);
    if (text.find('\0') != std::string::npos)
        return LineError(path, 1, "a binary file, not a text descriptor");

    CPLStringList opts;
    std::string src;
    int source_line = 0; /* 0: no SOURCE yet */
    const char *p = SkipBom(text.c_str());
    for (int line = 1; *p; ++line)
    {
        const char *end = p + strcspn(p, "\n");
        const std::string l = Trim(std::string(p, end));
        p = *end ? end + 1 : end;
        if (l.empty() || l[0] == '#')
            continue;
        const size_t eq = l.find('=');
        if (eq == std::string::npos)
            return LineError(path, line,
                             CPLSPrintf("'%s' is not KEY=VALUE", l.c_str()));
        const std::string key = Trim(l.substr(0, eq));
        const std::string value = Trim(l.substr(eq + 1));
        if (EQUAL(key.c_str(), "SOURCE"))
        {
            if (source_line)
                return LineError(path, line, "a second SOURCE");
            if (value.empty())
                return LineError(path, line, "SOURCE is empty");
            src = value;
            source_line = line;
        }
        else if ((STARTS_WITH_CI(key.c_str(), "SRC_") && key.size() > 4) ||
                 IsOpenOption(key.c_str()))
        {
            opts.SetNameValue(key.c_str(), value.c_str());
        }
        else
        {
            return LineError(
                path, line,
                CPLSPrintf("unknown key '%s'", key.c_str()));
        }
    }
    if (!source_line)
    {
        CPLError(CE_Failure, CPLE_OpenFailed,
                 "VSGPU: %s has no SOURCE=<dataset> line (docs/usage.md)",
                 path);
        return false;
    }
    /* A descriptor wraps a source, not another VSGPU dataset: that would
     * only add a layer, and a descriptor naming itself would never end. */
    if (STARTS_WITH_CI(src.c_str(), VSGPU_PREFIX) ||
        HasExtension(src.c_str()))
        return LineError(path, source_line,
                         CPLSPrintf("SOURCE '%s' is a VSGPU dataset itself",
                                    src.c_str()));
    *source = IsAsWritten(src) ? src : FolderOf(path) + "/" + src;
    *options = opts;
    return true;
}

}  // namespace vsgpu
