/*
 * lexer.c - splits VSGPU SQL text into tokens.
 *
 * The whole text is tokenised up front into (type, offset, length) triples;
 * values (unquoted strings and identifiers) are only materialised when the
 * parser needs them. A lexical error does not fail the lex: it becomes a
 * TK_ERROR token, so that text the VSGPU dialect does not handle at all
 * ("DELETE FROM t WHERE x = 'unterminated") is reported as NOT_VSGPU by the
 * parser, which stops at the first token, rather than as a syntax error.
 *
 * Byte classes follow SQLite: bytes >= 0x80 may appear in unquoted
 * identifiers (UTF-8 names); only ASCII whitespace separates tokens.
 */
#include <stdlib.h>
#include <string.h>

#include "vsg_parse_internal.h"

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c >= 0x80;
}

static int is_ident_char(unsigned char c)
{
    return is_ident_start(c) || is_digit(c) || c == '$';
}

/* Length of a quoted run starting at s[0] (the opening quote q), where a
 * doubled quote stands for one; 0 when unterminated. */
static size_t quoted_len(const char *s, char q)
{
    size_t i = 1;
    for (;;) {
        if (s[i] == '\0')
            return 0;
        if (s[i] == q) {
            if (s[i + 1] == q) {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i++;
    }
}

/* Length of a number at s (s[0] is a digit, or '.' followed by a digit);
 * sets *is_real. 0 when malformed (e.g. "1e", "1e+", "12abc"). */
static size_t number_len(const char *s, int *is_real)
{
    size_t i = 0;
    *is_real = 0;
    while (is_digit((unsigned char)s[i]))
        i++;
    if (s[i] == '.') {
        *is_real = 1;
        i++;
        while (is_digit((unsigned char)s[i]))
            i++;
    }
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (!is_digit((unsigned char)s[j]))
            return 0;
        while (is_digit((unsigned char)s[j]))
            j++;
        *is_real = 1;
        i = j;
    }
    if (is_ident_char((unsigned char)s[i]) || s[i] == '.')
        return 0;
    return i;
}

/* Operators and punctuation: sets *type and returns the length, or 0 for a
 * character no SQL accepts. */
static size_t operator_len(const char *s, vsg_tok_type *type)
{
    static const struct {
        const char *text;
        vsg_tok_type type;
    } ops[] = {
        /* longest first */
        {"->>", TK_UNSUPPORTED}, {"||", TK_CONCAT}, {"<>", TK_NE},
        {"!=", TK_NE},  {"<=", TK_LE},  {">=", TK_GE},  {"==", TK_EQ},
        {"<<", TK_UNSUPPORTED}, {">>", TK_UNSUPPORTED},
        {"->", TK_UNSUPPORTED},
        {"(", TK_LPAREN}, {")", TK_RPAREN}, {",", TK_COMMA}, {".", TK_DOT},
        {";", TK_SEMI}, {"*", TK_STAR}, {"+", TK_PLUS}, {"-", TK_MINUS},
        {"/", TK_SLASH}, {"%", TK_PERCENT}, {"=", TK_EQ}, {"<", TK_LT},
        {">", TK_GT}, {"~", TK_UNSUPPORTED}, {"&", TK_UNSUPPORTED},
        {"|", TK_UNSUPPORTED}, {"?", TK_UNSUPPORTED}, {":", TK_UNSUPPORTED},
        {"@", TK_UNSUPPORTED}, {"$", TK_UNSUPPORTED},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        size_t n = strlen(ops[k].text);
        if (strncmp(s, ops[k].text, n) == 0) {
            *type = ops[k].type;
            return n;
        }
    }
    return 0;
}

/* Scans one token at s[0] (not whitespace, not a comment, not NUL). On a
 * lexical error sets *msg and returns 0. */
static size_t scan_token(const char *s, vsg_tok_type *type, const char **msg)
{
    unsigned char c = (unsigned char)s[0];
    size_t n;
    int is_real;

    if ((c == 'x' || c == 'X') && s[1] == '\'') {
        n = quoted_len(s + 1, '\'');
        *type = TK_UNSUPPORTED; /* blob literal */
        if (n == 0)
            *msg = "unterminated string literal";
        return n ? n + 1 : 0;
    }
    if (is_ident_start(c)) {
        n = 1;
        while (is_ident_char((unsigned char)s[n]))
            n++;
        *type = TK_IDENT;
        return n;
    }
    if (c == '0' && (s[1] == 'x' || s[1] == 'X') &&
        strchr("0123456789abcdefABCDEF", s[2]) && s[2] != '\0') {
        n = 2;
        while (s[n] != '\0' && strchr("0123456789abcdefABCDEF", s[n]))
            n++;
        *type = TK_UNSUPPORTED; /* hexadecimal integer */
        return n;
    }
    if (is_digit(c) || (c == '.' && is_digit((unsigned char)s[1]))) {
        n = number_len(s, &is_real);
        *type = is_real ? TK_REAL : TK_INTEGER;
        if (n == 0)
            *msg = "malformed number";
        return n;
    }
    if (c == '\'' || c == '"' || c == '`') {
        n = quoted_len(s, (char)c);
        *type = c == '\'' ? TK_STRING : c == '"' ? TK_QIDENT : TK_UNSUPPORTED;
        if (n == 0)
            *msg = c == '\'' ? "unterminated string literal"
                             : "unterminated quoted identifier";
        return n;
    }
    if (c == '[') {
        const char *close = strchr(s, ']');
        *type = TK_UNSUPPORTED; /* [bracketed identifier] */
        if (!close)
            *msg = "unterminated quoted identifier";
        return close ? (size_t)(close - s) + 1 : 0;
    }
    n = operator_len(s, type);
    if (n == 0)
        *msg = "unexpected character";
    return n;
}

/* Skips whitespace and comments from s[i]. Returns the new offset, or -1
 * with *err_pos set for an unterminated block comment. */
static long skip_blank(const char *s, long i, long *err_pos)
{
    for (;;) {
        while (is_space((unsigned char)s[i]))
            i++;
        if (s[i] == '-' && s[i + 1] == '-') {
            while (s[i] != '\0' && s[i] != '\n')
                i++;
        } else if (s[i] == '/' && s[i + 1] == '*') {
            const char *end = strstr(s + i + 2, "*/");
            if (!end) {
                *err_pos = i;
                return -1;
            }
            i = (long)(end - s) + 2;
        } else {
            return i;
        }
    }
}

int vsg_lex(const char *src, vsg_token **toks_out, int *n_out,
            const char **lex_error)
{
    size_t cap = 16, n = 0;
    long i = 0;
    vsg_token *toks = malloc(cap * sizeof *toks);

    *toks_out = NULL;
    *n_out = 0;
    *lex_error = NULL;
    if (!toks)
        return -1;
    for (;;) {
        long err_pos = 0;
        vsg_tok_type type = TK_END;
        size_t len = 0;
        long start = skip_blank(src, i, &err_pos);

        /* Room for this token and a possible TK_END after an error. */
        if (n + 2 > cap) {
            vsg_token *bigger;
            if (cap > ((size_t)-1 / sizeof *toks) / 2 || cap * 2 > (size_t)1 << 30) {
                free(toks);
                return -1;
            }
            bigger = realloc(toks, cap * 2 * sizeof *toks);
            if (!bigger) {
                free(toks);
                return -1;
            }
            toks = bigger;
            cap *= 2;
        }
        if (start < 0) {
            *lex_error = "unterminated comment";
            toks[n++] = (vsg_token){TK_ERROR, (int)err_pos, 2};
            toks[n++] = (vsg_token){TK_END, (int)err_pos, 0};
            break;
        }
        if (src[start] == '\0') {
            toks[n++] = (vsg_token){TK_END, (int)start, 0};
            break;
        }
        len = scan_token(src + start, &type, lex_error);
        if (len == 0) {
            toks[n++] = (vsg_token){TK_ERROR, (int)start, 1};
            toks[n++] = (vsg_token){TK_END, (int)start, 0};
            break;
        }
        toks[n++] = (vsg_token){type, (int)start, (int)len};
        i = start + (long)len;
    }
    *toks_out = toks;
    *n_out = (int)n;
    return 0;
}

int vsg_tok_is(const vsg_parser *p, const vsg_token *t, const char *kw)
{
    size_t n = strlen(kw);
    const char *s = p->src + t->pos;
    if (t->type != TK_IDENT || (size_t)t->len != n)
        return 0;
    for (size_t k = 0; k < n; k++) {
        char a = s[k], b = kw[k];
        if (a >= 'a' && a <= 'z')
            a = (char)(a - 'a' + 'A');
        if (b >= 'a' && b <= 'z')
            b = (char)(b - 'a' + 'A');
        if (a != b)
            return 0;
    }
    return 1;
}

int vsg_tok_is_reserved(const vsg_parser *p, const vsg_token *t)
{
    /* Words that end or structure a clause: an alias or a column may not
     * be one of them unless quoted. */
    static const char *const reserved[] = {
        "ALL", "AND", "AS", "BETWEEN", "BY", "CASE", "CAST", "COLLATE",
        "CROSS", "DISTINCT", "ELSE", "END", "ESCAPE", "EXCEPT", "EXISTS",
        "FROM", "FULL", "GLOB", "GROUP", "HAVING", "ILIKE", "IN", "INNER",
        "INTERSECT", "IS", "ISNULL", "JOIN", "LEFT", "LIKE", "LIMIT", "MATCH",
        "NATURAL", "NOT", "NOTNULL", "NULL", "OFFSET", "ON", "OR", "ORDER",
        "OUTER", "REGEXP", "RIGHT", "SELECT", "THEN", "UNION", "USING",
        "WHEN", "WHERE", "WINDOW", "WITH",
    };
    if (t->type != TK_IDENT)
        return 0;
    for (size_t k = 0; k < sizeof reserved / sizeof reserved[0]; k++)
        if (vsg_tok_is(p, t, reserved[k]))
            return 1;
    return 0;
}

char *vsg_tok_value(const vsg_parser *p, const vsg_token *t)
{
    const char *s = p->src + t->pos;
    size_t len = (size_t)t->len, o = 0;
    char *v;

    if (t->type != TK_STRING && t->type != TK_QIDENT) {
        v = malloc(len + 1);
        if (v) {
            memcpy(v, s, len);
            v[len] = '\0';
        }
        return v;
    }
    /* Quoted: drop the outer quotes, undo doubling. */
    v = malloc(len);
    if (!v)
        return NULL;
    for (size_t k = 1; k + 1 < len; k++) {
        v[o++] = s[k];
        if (s[k] == s[0])
            k++;
    }
    v[o] = '\0';
    return v;
}

int vsg_take_value(vsg_parser *p, char **dst)
{
    free(*dst);
    *dst = vsg_tok_value(p, cur(p));
    if (!*dst)
        return vsg_nomem(p);
    advance(p);
    return 0;
}
