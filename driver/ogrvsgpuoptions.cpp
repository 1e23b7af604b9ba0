/*
 * ogrvsgpuoptions.cpp - the options of docs/semantics.md, declared once and
 * resolved with one precedence: statement > open option > configuration
 * option (VSGPU_* only) > default.
 */
#include "ogr_vsgpu.h"

#include "cpl_conv.h"
#include "cpl_string.h"

#include <cerrno>
#include <climits>
#include <cstdlib>

namespace vsgpu
{

namespace
{

enum class Kind
{
    Bool,
    String,
    Invalid,
    CrsMismatch,
    MethodSources,
    Mode,
    Threads,
    PositiveInt,
    Device,
    Bytes,
    Backend,
    MinRows,
    MinBytes,
    Dialect
};

struct Decl
{
    const char *name;   /* statement and open option name */
    const char *config; /* configuration option, or nullptr */
    Kind kind;
    const char *deflt;
    bool statement; /* allowed as a statement option */
    const char *description;
};

const Decl kOptions[] = {
    {"SKIP_FAILURES", nullptr, Kind::Bool, "NO", true,
     "Skip a pair whose GEOS operation fails instead of failing"},
    {"PROMOTE_TO_MULTI", nullptr, Kind::Bool, "NO", true,
     "Every output geometry is Multi"},
    {"KEEP_LOWER_DIMENSION_GEOMETRIES", nullptr, Kind::Bool, "NO", true,
     "Keep results of lower dimension (layer type Unknown)"},
    {"INPUT_PREFIX", nullptr, Kind::String, "", true,
     "Prefix for all input fields"},
    {"METHOD_PREFIX", nullptr, Kind::String, "", true,
     "Prefix for all method fields"},
    {"INVALID", "VSGPU_INVALID", Kind::Invalid, "REPAIR", true,
     "Invalid input policy"},
    {"CRS_MISMATCH", "VSGPU_CRS_MISMATCH", Kind::CrsMismatch, "ERROR", true,
     "Input and method layers in different CRSs: ERROR, REPROJECT the method "
     "layer to the CRS of the input layer, or IGNORE"},
    {"EXECUTION_MODE", "VSGPU_EXECUTION_MODE", Kind::Mode, "AUTO", true,
     "Runtime selection"},
    {"NUM_THREADS", "VSGPU_NUM_THREADS", Kind::Threads, "ALL_CPUS", true,
     "CPU engine threads"},
    {"BATCH_SIZE", "VSGPU_BATCH_SIZE", Kind::PositiveInt, "16384", true,
     "Input features per batch (unset, the GPU pipeline reads 131072 features or "
     "64 MB of WKB per batch)"},
    {"READ_AHEAD", "VSGPU_READ_AHEAD", Kind::Bool, "YES", true,
     "Intersection and clip read and compute the next input batch on a helper "
     "thread while the current one is handed out (NO: one thread does all)"},
    {"METHOD_SOURCES", "VSGPU_METHOD_SOURCES", Kind::MethodSources, "LOCAL",
     false,
     "Datasets a statement may name: LOCAL (local files through file-based "
     "vector drivers; no network, connection strings, VRT or GDALG) or ANY"},
    {"SQL_FALLBACK", "VSGPU_SQL_FALLBACK", Kind::Bool, "NO", false,
     "Run a read-only SELECT the VSGPU dialect does not take with the SQLite "
     "dialect, on a read-only handle (NO: an error)"},
    {"DIALECT", nullptr, Kind::Dialect, "", false,
     "Dialect of ExecuteSQL calls that name none: VSGPU runs the statements "
     "the VSGPU dialect takes and forwards the others unchanged; NONE (or "
     "empty) forwards all"},
    {"COVERAGE_UNION", "VSGPU_COVERAGE_UNION", Kind::Bool, "YES", false,
     "Dissolve: the exact coverage union from the boundary segments of the members "
     "(on the GPU or the CPU) before GEOS; NO: GEOS only"},
    {"GPU_REFINE", "VSGPU_GPU_REFINE", Kind::Bool, "YES", false,
     "Intersection and clip on the GPU pipeline: the exact refine of the pairs "
     "the classes leave undecided (and the union of the pieces of a clip) on the GPU, GEOS "
     "for what it hands back; NO: GEOS refines them all"},
    {"GPU_DEVICE", "VSGPU_GPU_DEVICE", Kind::Device, "0", false,
     "CUDA device ordinal"},
    {"GPU_POOL_LIMIT", "VSGPU_GPU_POOL_LIMIT", Kind::Bytes, "0", false,
     "Cap of the GPU memory pool in bytes (suffix K, M or G; 0: no cap)"},
    {"GPU_POOL_RESERVE", "VSGPU_GPU_POOL_RESERVE", Kind::Bytes, "4G", false,
     "GPU memory the pool is grown to while the sources are read, before the first GPU "
     "stage, in bytes (suffix K, M or G; at most a quarter of the free memory; 0: none, "
     "the pool grows as the stages ask)"},
    {"GPU_OOM_SAFETY", "VSGPU_GPU_OOM_SAFETY", Kind::Bool, "NO", false,
     "On GPU out of memory trim the pool, synchronise and retry"},
    {"GPU_MANAGED_MEMORY", "VSGPU_GPU_MANAGED_MEMORY", Kind::Bool, "NO", false,
     "Managed memory for data beyond GPU memory (slower)"},
    {"NVTX", "VSGPU_NVTX", Kind::Bool, "NO", false,
     "NVTX ranges around GPU stages"},
    {"PROFILE_STEPS", "VSGPU_PROFILE_STEPS", Kind::Bool, "NO", false,
     "The profile (VSGPU_PROFILE) also times every step of the stages of the GPU pipeline"},
    {"GPU_MIN_ROWS", "VSGPU_GPU_MIN_ROWS", Kind::MinRows, "MEASURED", false,
     "AUTO takes the GPU pipeline from this many input rows (MEASURED: the crossover measured on the GPU host)"},
    {"GPU_MIN_BYTES", "VSGPU_GPU_MIN_BYTES", Kind::MinBytes, "MEASURED", false,
     "Below the crossover in rows AUTO still takes the GPU pipeline where the rows of the input and "
     "method layers are large (16 KiB of WKB or more on average) and add up to this many bytes "
     "(suffix K, M or G; MEASURED: the crossover measured on the GPU host)"},
    {"GPU_BACKEND", "VSGPU_GPU_BACKEND", Kind::Backend, "CUDA", false,
     "Where the GPU pipeline runs: CUDA, or HOST to run it on the CPU for tests"},
    /* Not a statement option: it says how a program shows the statement,
     * not what the statement computes. */
    {"PROGRESS", "VSGPU_PROGRESS", Kind::Bool, "NO", false,
     "Print the progress of reading the result on the terminal, as ogr2ogr -progress does"},
};

const Decl *FindDecl(const char *name)
{
    for (const Decl &d : kOptions)
        if (EQUAL(d.name, name))
            return &d;
    return nullptr;
}

/* Looks the value up with the precedence of the contract. *origin says
 * where it came from, for messages. */
const char *Lookup(const Decl &d, char **stmt, int n_stmt,
                   CSLConstList open_options, std::string *holder,
                   const char **origin)
{
    for (int i = n_stmt - 1; i >= 0; --i)
    {
        char *key = nullptr;
        const char *value = CPLParseNameValue(stmt[i], &key);
        const bool match = key != nullptr && EQUAL(key, d.name);
        CPLFree(key);
        if (match && value)
        {
            *holder = value;
            *origin = "statement option";
            return holder->c_str();
        }
    }
    const char *v = CSLFetchNameValue(open_options, d.name);
    if (v)
    {
        *origin = "open option";
        return v;
    }
    if (d.config)
    {
        v = CPLGetConfigOption(d.config, nullptr);
        if (v)
        {
            *origin = "configuration option";
            return v;
        }
    }
    *origin = "default";
    return d.deflt;
}

/* The values of an option that is a choice, in the order of the enum
 * they map to; nullptr for the other kinds. The parser, the error message
 * and the open-option XML all read this one list. */
const char *const *Choices(Kind k)
{
    static const char *const invalid[] = {"REPAIR", "SKIP", "ERROR", nullptr};
    static const char *const crs[] = {"ERROR", "REPROJECT", "IGNORE", nullptr};
    static const char *const sources[] = {"LOCAL", "ANY", nullptr};
    static const char *const mode[] = {"AUTO", "CPU", "GPU", nullptr};
    static const char *const backend[] = {"CUDA", "HOST", nullptr};
    static const char *const dialect[] = {"VSGPU", "NONE", nullptr};
    switch (k)
    {
        case Kind::Invalid:
            return invalid;
        case Kind::CrsMismatch:
            return crs;
        case Kind::MethodSources:
            return sources;
        case Kind::Mode:
            return mode;
        case Kind::Backend:
            return backend;
        case Kind::Dialect:
            return dialect;
        default:
            return nullptr;
    }
}

/* Index of v in the kind's choices (case-insensitive), -1 if none. */
int ChoiceIndex(Kind k, const char *v)
{
    const char *const *c = Choices(k);
    for (int i = 0; c && c[i]; ++i)
        if (EQUAL(v, c[i]))
            return i;
    return -1;
}

/* "A, B or C". */
std::string ChoiceList(Kind k)
{
    std::string out;
    const char *const *c = Choices(k);
    for (int i = 0; c && c[i]; ++i)
        out += std::string(i == 0 ? "" : c[i + 1] ? ", " : " or ") + c[i];
    return out;
}

bool Invalid(const Decl &d, const char *origin, const char *value,
             const char *expected)
{
    CPLError(CE_Failure, CPLE_IllegalArg,
             "VSGPU: invalid value '%s' for %s %s: expected %s", value,
             origin,
             (strcmp(origin, "configuration option") == 0 && d.config)
                 ? d.config
                 : d.name,
             expected);
    return false;
}

bool ParseBool(const char *v, bool *out)
{
    if (EQUAL(v, "YES") || EQUAL(v, "TRUE") || EQUAL(v, "ON") ||
        EQUAL(v, "1"))
        *out = true;
    else if (EQUAL(v, "NO") || EQUAL(v, "FALSE") || EQUAL(v, "OFF") ||
             EQUAL(v, "0"))
        *out = false;
    else
        return false;
    return true;
}

bool ParsePositive(const char *v, int *out)
{
    errno = 0;
    char *end = nullptr;
    const long n = strtol(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0' || n < 1 || n > INT_MAX)
        return false;
    *out = static_cast<int>(n);
    return true;
}

/* 0, 512, 64K, 1.5G (binary multiples). */
bool ParseBytes(const char *v, GIntBig *out)
{
    errno = 0;
    char *end = nullptr;
    const double n = CPLStrtod(v, &end);
    if (errno != 0 || end == v || !(n >= 0))
        return false;
    double mult = 1;
    if (*end == 'K' || *end == 'k')
        mult = 1024.0, ++end;
    else if (*end == 'M' || *end == 'm')
        mult = 1024.0 * 1024, ++end;
    else if (*end == 'G' || *end == 'g')
        mult = 1024.0 * 1024 * 1024, ++end;
    if (*end == 'B' || *end == 'b')
        ++end;
    const double bytes = n * mult;
    if (*end != '\0' || bytes > 9.0e18)
        return false;
    *out = static_cast<GIntBig>(bytes);
    return true;
}

bool Apply(const Decl &d, const char *v, const char *origin, Options *o)
{
    switch (d.kind)
    {
        case Kind::Bool:
        {
            bool b = false;
            if (!ParseBool(v, &b))
                return Invalid(d, origin, v, "YES or NO");
            if (EQUAL(d.name, "SKIP_FAILURES"))
                o->skip_failures = b;
            else if (EQUAL(d.name, "PROMOTE_TO_MULTI"))
                o->promote_to_multi = b;
            else if (EQUAL(d.name, "KEEP_LOWER_DIMENSION_GEOMETRIES"))
                o->keep_lower_dim = b;
            else if (EQUAL(d.name, "GPU_OOM_SAFETY"))
                o->gpu.oom_safety = b ? 1 : 0;
            else if (EQUAL(d.name, "GPU_MANAGED_MEMORY"))
                o->gpu.managed = b ? 1 : 0;
            else if (EQUAL(d.name, "NVTX"))
                o->gpu.nvtx = b ? 1 : 0;
            else if (EQUAL(d.name, "PROFILE_STEPS"))
                o->gpu.steps = b ? 1 : 0;
            else if (EQUAL(d.name, "PROGRESS"))
                o->progress = b;
            else if (EQUAL(d.name, "COVERAGE_UNION"))
                o->coverage_union = b;
            else if (EQUAL(d.name, "GPU_REFINE"))
                o->gpu_refine = b;
            else if (EQUAL(d.name, "READ_AHEAD"))
                o->read_ahead = b;
            return true;
        }
        case Kind::String:
            if (EQUAL(d.name, "INPUT_PREFIX"))
            {
                o->has_input_prefix = strcmp(origin, "default") != 0;
                o->input_prefix = v;
            }
            else
            {
                o->has_method_prefix = strcmp(origin, "default") != 0;
                o->method_prefix = v;
            }
            return true;
        case Kind::Invalid:
        case Kind::CrsMismatch:
        case Kind::MethodSources:
        case Kind::Mode:
        case Kind::Backend:
        {
            const int i = ChoiceIndex(d.kind, v);
            if (i < 0)
                return Invalid(d, origin, v, ChoiceList(d.kind).c_str());
            if (d.kind == Kind::Invalid)
                o->invalid = static_cast<vsg_invalid_policy>(i);
            else if (d.kind == Kind::CrsMismatch)
                o->crs_mismatch = static_cast<CrsMismatch>(i);
            else if (d.kind == Kind::MethodSources)
                o->method_sources_any = i == 1;
            else if (d.kind == Kind::Mode)
                o->mode = static_cast<vsg_exec_mode>(i);
            else
                o->gpu_backend_host = i == 1;
            return true;
        }
        case Kind::Threads:
            if (EQUAL(v, "ALL_CPUS"))
                o->num_threads = 0;
            else if (!ParsePositive(v, &o->num_threads))
                return Invalid(d, origin, v, "a positive integer or ALL_CPUS");
            return true;
        case Kind::PositiveInt:
            if (!ParsePositive(v, &o->batch_size))
                return Invalid(d, origin, v, "a positive integer");
            o->batch_size_set = !EQUAL(origin, "default");
            return true;
        case Kind::Device:
            if (EQUAL(v, "0"))
                o->gpu.device = 0;
            else if (!ParsePositive(v, &o->gpu.device))
                return Invalid(d, origin, v, "a device ordinal (0, 1, ...)");
            return true;
        case Kind::Bytes:
        {
            GIntBig bytes = 0;
            if (!ParseBytes(v, &bytes))
                return Invalid(d, origin, v,
                               "a number of bytes, optionally with K, M or G");
            if (EQUAL(d.name, "GPU_POOL_RESERVE"))
                o->gpu.pool_reserve = static_cast<int64_t>(bytes);
            else
                o->gpu.pool_limit = static_cast<int64_t>(bytes);
            return true;
        }
        case Kind::MinRows:
        case Kind::MinBytes:
        {
            const bool rows = d.kind == Kind::MinRows;
            GIntBig *to = rows ? &o->gpu_min_rows : &o->gpu_min_bytes;
            if (EQUAL(v, "MEASURED"))
            {
                *to = -1;
                return true;
            }
            GIntBig n = 0;
            if (!ParseBytes(v, &n) || (rows && strpbrk(v, "KkMmGgBb.") != nullptr))
                return Invalid(d, origin, v,
                               rows ? "MEASURED or a number of rows (0, 1, ...)"
                                    : "MEASURED or a number of bytes, optionally with K, M or G");
            *to = n;
            return true;
        }
        case Kind::Dialect: /* a dataset setting: ResolveDialect() */
            return true;
    }
    return true;
}

}  // namespace

const char *OpenOptionListXML()
{
    static std::string xml;
    if (xml.empty())
    {
        std::string s = "<OpenOptionList>";
        for (const Decl &d : kOptions)
        {
            std::string type = "string";
            std::string values;
            if (const char *const *c = Choices(d.kind))
            {
                type = "string-select";
                for (int i = 0; c[i]; ++i)
                    values += std::string("<Value>") + c[i] + "</Value>";
            }
            else if (d.kind == Kind::Bool)
                type = "boolean";
            else if (d.kind == Kind::PositiveInt || d.kind == Kind::Device)
                type = "int";
            s += CPLSPrintf("<Option name='%s' type='%s' description='%s%s%s'",
                            d.name, type.c_str(), d.description,
                            d.config ? ". Config option " : "",
                            d.config ? d.config : "");
            if (d.deflt[0])
                s += CPLSPrintf(" default='%s'", d.deflt);
            s += values.empty() ? "/>" : ">" + values + "</Option>";
        }
        s += "<Option name='SRC_*' type='string' description='Passed to the "
             "wrapped source as open option * (SRC_LIST_ALL_TABLES=YES gives "
             "LIST_ALL_TABLES=YES)'/>";
        /* QGIS adds NOLOCK=ON when it opens a path ending in .gpkg, as
         * VSGPU:x.gpkg does: declared, so that GDAL does not warn about
         * it, and handed to the wrapped GeoPackage it was meant for. */
        s += "<Option name='NOLOCK' type='boolean' description='Passed to "
             "the wrapped source (the GeoPackage driver option that QGIS "
             "sets for .gpkg paths)'/>";
        s += "</OpenOptionList>";
        xml = s;
    }
    return xml.c_str();
}

bool ResolveOptions(char **stmt_options, int n_stmt_options,
                    CSLConstList open_options, Options *out)
{
    /* Statement options must be known ones. */
    for (int i = 0; i < n_stmt_options; ++i)
    {
        char *key = nullptr;
        const char *value = CPLParseNameValue(stmt_options[i], &key);
        const Decl *d = key ? FindDecl(key) : nullptr;
        if (value == nullptr || d == nullptr || !d->statement)
        {
            CPLError(CE_Failure, CPLE_IllegalArg,
                     "VSGPU: unknown statement option '%s' (expected "
                     "KEY=VALUE with KEY one of SKIP_FAILURES, "
                     "PROMOTE_TO_MULTI, KEEP_LOWER_DIMENSION_GEOMETRIES, "
                     "INPUT_PREFIX, METHOD_PREFIX, INVALID, EXECUTION_MODE, "
                     "NUM_THREADS, BATCH_SIZE)",
                     stmt_options[i]);
            CPLFree(key);
            return false;
        }
        CPLFree(key);
    }

    Options o;
    for (const Decl &d : kOptions)
    {
        /* Dataset settings, resolved by ResolveSqlFallback/ResolveDialect. */
        if (d.kind == Kind::Dialect ||
            (d.kind == Kind::Bool && EQUAL(d.name, "SQL_FALLBACK")))
            continue;
        std::string holder;
        const char *origin = "";
        const char *v =
            Lookup(d, stmt_options, n_stmt_options, open_options, &holder,
                   &origin);
        if (!Apply(d, v, origin, &o))
            return false;
    }
    o.profile_path = CPLGetConfigOption("VSGPU_PROFILE", "");
    *out = o;
    return true;
}

bool ResolveSqlFallback(CSLConstList open_options, bool *enabled)
{
    const Decl *d = FindDecl("SQL_FALLBACK");
    std::string holder;
    const char *origin = "";
    const char *v = Lookup(*d, nullptr, 0, open_options, &holder, &origin);
    if (!ParseBool(v, enabled))
        return Invalid(*d, origin, v, "YES or NO");
    return true;
}

bool IsOpenOption(const char *name)
{
    return FindDecl(name) != nullptr;
}

bool ResolveDialect(CSLConstList open_options, bool *vsgpu_default)
{
    const Decl *d = FindDecl("DIALECT");
    std::string holder;
    const char *origin = "";
    const char *v = Lookup(*d, nullptr, 0, open_options, &holder, &origin);
    const int i = v[0] == '\0' ? 1 : ChoiceIndex(Kind::Dialect, v);
    if (i < 0)
        return Invalid(*d, origin, v, "VSGPU, NONE or an empty value");
    *vsgpu_default = i == 0;
    return true;
}

}  // namespace vsgpu
