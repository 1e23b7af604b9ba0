/*
 * fuzz_sqlguard.cpp - the guard of the SQLite fallback
 * (driver/ogrvsgpusqlguard.cpp, IsReadOnlySelect) on arbitrary statement
 * text: it tokenises untrusted SQL by hand. A refusal must say why.
 */
#include "ogr_vsgpu.h"

#include <string>

#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string sql(reinterpret_cast<const char *>(data), size);
    std::string why;
    if (!vsgpu::IsReadOnlySelect(sql.c_str(), &why))
        FUZZ_CHECK(!why.empty());
    return 0;
}
