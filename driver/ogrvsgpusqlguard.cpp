/*
 * ogrvsgpusqlguard.cpp - what the SQLite fallback of `-dialect VSGPU` may
 * run. A statement the VSGPU dialect does not take is an error by default
 * (SQL_FALLBACK=NO); with SQL_FALLBACK=YES only one read-only SELECT runs,
 * on a read-only handle of the source: `-dialect VSGPU` must never change
 * data (docs/semantics.md, "Statements the dialect does not take").
 *
 * The test reads SQL tokens: string literals, quoted identifiers and
 * comments are skipped, so a word inside them does not count.
 */
#include "ogr_vsgpu.h"

#include "cpl_string.h"

#include <cctype>
#include <string>
#include <vector>

namespace vsgpu
{

namespace
{

/* Statements and functions that write: as keywords anywhere, or as a
 * function name (word followed by "("). */
const char *const kWriteKeywords[] = {
    "DELETE", "UPDATE",  "INSERT",  "REPLACE", "CREATE",  "DROP",
    "ALTER",  "PRAGMA",  "ATTACH",  "DETACH",  "VACUUM",  "REINDEX",
    "UPSERT", "SAVEPOINT", "RELEASE", "BEGIN", "COMMIT", "ROLLBACK"};
const char *const kWriteFunctions[] = {"load_extension", "writefile",
                                       "readfile", "edit"};
/* SpatiaLite's ImportSHP, ExportKML, ...: they read or write files. */
const char *const kWriteFunctionPrefixes[] = {"import", "export"};

struct Token
{
    std::string word; /* identifier or keyword; "" for punctuation     */
    char punct = 0;   /* ';', '(' and other single characters          */
};

/* Words and punctuation outside literals, quoted names and comments.
 * false when a literal, quoted name or comment is not closed. */
bool Tokens(const char *sql, std::vector<Token> *out)
{
    const char *p = sql;
    while (*p)
    {
        const unsigned char c = static_cast<unsigned char>(*p);
        if (std::isspace(c))
        {
            ++p;
        }
        else if (p[0] == '-' && p[1] == '-')
        {
            while (*p && *p != '\n')
                ++p;
        }
        else if (p[0] == '/' && p[1] == '*')
        {
            const char *e = strstr(p + 2, "*/");
            if (e == nullptr)
                return false;
            p = e + 2;
        }
        else if (c == '\'' || c == '"' || c == '`' || c == '[')
        {
            const char close = c == '[' ? ']' : static_cast<char>(c);
            ++p;
            while (true)
            {
                if (*p == '\0')
                    return false;
                if (*p == close)
                {
                    if (close != ']' && p[1] == close)
                    {
                        p += 2; /* doubled quote */
                        continue;
                    }
                    ++p;
                    break;
                }
                ++p;
            }
            out->push_back(Token{"\"", 0}); /* a value or name: not a word */
        }
        else if (std::isalnum(c) || c == '_')
        {
            Token t;
            while (std::isalnum(static_cast<unsigned char>(*p)) || *p == '_')
                t.word += *p++;
            out->push_back(t);
        }
        else
        {
            Token t;
            t.punct = *p++;
            out->push_back(t);
        }
    }
    return true;
}

}  // namespace

bool IsReadOnlySelect(const char *sql, std::string *why)
{
    std::vector<Token> toks;
    if (!Tokens(sql, &toks))
    {
        *why = "a string, quoted name or comment is not closed";
        return false;
    }
    if (toks.empty() ||
        !(EQUAL(toks[0].word.c_str(), "SELECT") ||
          EQUAL(toks[0].word.c_str(), "WITH")))
    {
        *why = "only a SELECT statement may run with the SQLite dialect here";
        return false;
    }
    for (size_t i = 0; i < toks.size(); ++i)
    {
        const Token &t = toks[i];
        if (t.punct == ';')
        {
            for (size_t k = i + 1; k < toks.size(); ++k)
                if (toks[k].punct != ';')
                {
                    *why = "more than one statement";
                    return false;
                }
            break;
        }
        if (t.word.empty())
            continue;
        for (const char *kw : kWriteKeywords)
            if (EQUAL(t.word.c_str(), kw))
            {
                *why = std::string("it contains ") + kw;
                return false;
            }
        const bool call = i + 1 < toks.size() && toks[i + 1].punct == '(';
        if (!call)
            continue;
        for (const char *fn : kWriteFunctions)
            if (EQUAL(t.word.c_str(), fn))
            {
                *why = std::string("it calls ") + fn + "()";
                return false;
            }
        for (const char *prefix : kWriteFunctionPrefixes)
            if (STARTS_WITH_CI(t.word.c_str(), prefix))
            {
                *why = "it calls " + t.word + "()";
                return false;
            }
    }
    return true;
}

}  // namespace vsgpu
