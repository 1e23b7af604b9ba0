/*
 * unparse.c - writes an expression tree as an OGR SQL expression, for
 * OGRLayer::SetAttributeFilter and friends.
 *
 * Spelled for the OGR SQL parser of GDAL 3.6 (checked against it):
 *   - every unary and binary node is parenthesised, so precedence is kept
 *     whatever OGR SQL's own levels are;
 *   - identifiers are double-quoted; OGR SQL escapes a quote inside them
 *     as \" (it does not read "" as a quote);
 *   - strings are single-quoted with '' for a quote, except after a
 *     backslash, where OGR SQL would read \' as an escaped quote: there the
 *     quote is written \'. A string or identifier that ends in a backslash
 *     cannot be written at all (the backslash would escape the closing
 *     quote): the unparse fails;
 *   - a || b is written CONCAT(a, b) (OGR SQL has no ||); != as <>;
 *     unary + is dropped (OGR SQL has none); a real such as .5 or 5. is
 *     written 0.5 or 5.0;
 *   - ILIKE stays ILIKE (OGR SQL >= 3.1: LIKE is case-sensitive, ILIKE is
 *     not), NOT IN / NOT BETWEEN / NOT LIKE / IS NOT NULL stay as written.
 */
#include <stdlib.h>
#include <string.h>

#include "vsg_parse_internal.h"

typedef struct {
    char *buf;
    size_t len, cap;
    int failed;
    vsg_column_rename_fn rename;
    void *ctx;
} out_buf;

static void put_n(out_buf *o, const char *s, size_t n)
{
    if (o->failed)
        return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 64;
        char *bigger;
        while (cap < o->len + n + 1) {
            if (cap > (size_t)-1 / 2) {
                o->failed = 1;
                return;
            }
            cap *= 2;
        }
        bigger = realloc(o->buf, cap);
        if (!bigger) {
            o->failed = 1;
            return;
        }
        o->buf = bigger;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void put(out_buf *o, const char *s) { put_n(o, s, strlen(s)); }

/* s between quotes q, escaped as the file comment says. */
static void put_quoted(out_buf *o, const char *s, char q)
{
    size_t n = strlen(s);
    char quote[2] = {q, '\0'};

    if (n > 0 && s[n - 1] == '\\') {
        o->failed = 1;
        return;
    }
    put(o, quote);
    for (size_t k = 0; k < n; k++) {
        if (s[k] == q) {
            if (q == '"' || (k > 0 && s[k - 1] == '\\'))
                put(o, "\\");
            else
                put(o, quote);
        }
        put_n(o, s + k, 1);
    }
    put(o, quote);
}

static void put_number(out_buf *o, const char *text)
{
    size_t n = strlen(text);
    const char *e = strpbrk(text, "eE");
    size_t mant = e ? (size_t)(e - text) : n;

    if (text[0] == '.')
        put(o, "0");
    put_n(o, text, mant);
    if (mant > 0 && text[mant - 1] == '.')
        put(o, "0");
    put(o, text + mant);
}

static const char *binary_op(vsg_op_code op)
{
    switch (op) {
    case VSG_OP_OR: return " OR ";
    case VSG_OP_AND: return " AND ";
    case VSG_OP_EQ: return " = ";
    case VSG_OP_NE: return " <> ";
    case VSG_OP_LT: return " < ";
    case VSG_OP_LE: return " <= ";
    case VSG_OP_GT: return " > ";
    case VSG_OP_GE: return " >= ";
    case VSG_OP_ADD: return " + ";
    case VSG_OP_SUB: return " - ";
    case VSG_OP_MUL: return " * ";
    case VSG_OP_DIV: return " / ";
    case VSG_OP_MOD: return " % ";
    default: return NULL;
    }
}

static void put_expr(out_buf *o, const vsg_expr *e);

static void put_list(out_buf *o, const vsg_expr *e, int from)
{
    for (int k = from; k < e->n_args; k++) {
        if (k > from)
            put(o, ", ");
        put_expr(o, e->args[k]);
    }
}

/* Sets o->failed for a node of the wrong shape (hand-built trees). */
static int need_args(out_buf *o, const vsg_expr *e, int n)
{
    if (e->n_args < n || !e->args) {
        o->failed = 1;
        return 0;
    }
    for (int k = 0; k < n; k++)
        if (!e->args[k]) {
            o->failed = 1;
            return 0;
        }
    return 1;
}

static void put_column(out_buf *o, const vsg_expr *e)
{
    const char *name = e->name;
    if (o->rename)
        name = o->rename(o->ctx, e->qualifier, e->name);
    if (!name) {
        o->failed = 1;
        return;
    }
    put_quoted(o, name, '"');
}

static void put_expr(out_buf *o, const vsg_expr *e)
{
    const char *op;

    if (o->failed)
        return;
    if (!e) {
        o->failed = 1;
        return;
    }
    switch (e->kind) {
    case VSG_EX_COLUMN:
        if (!e->name)
            o->failed = 1;
        else
            put_column(o, e);
        return;
    case VSG_EX_STAR: put(o, "*"); return;
    case VSG_EX_STRING: put_quoted(o, e->text ? e->text : "", '\''); return;
    case VSG_EX_INTEGER:
    case VSG_EX_REAL:
        if (!e->text || !e->text[0])
            o->failed = 1;
        else
            put_number(o, e->text);
        return;
    case VSG_EX_NULL: put(o, "NULL"); return;
    case VSG_EX_UNARY:
        if (!need_args(o, e, 1))
            return;
        put(o, e->op == VSG_OP_NOT ? "(NOT " : e->op == VSG_OP_NEG ? "(- "
                                                                   : "(");
        put_expr(o, e->args[0]);
        put(o, ")");
        return;
    case VSG_EX_BINARY:
        if (!need_args(o, e, 2))
            return;
        if (e->op == VSG_OP_CONCAT) {
            put(o, "CONCAT(");
            put_list(o, e, 0);
            put(o, ")");
            return;
        }
        if (!(op = binary_op(e->op))) {
            o->failed = 1;
            return;
        }
        put(o, "(");
        put_expr(o, e->args[0]);
        put(o, op);
        put_expr(o, e->args[1]);
        put(o, ")");
        return;
    case VSG_EX_IS_NULL:
        if (!need_args(o, e, 1))
            return;
        put(o, "(");
        put_expr(o, e->args[0]);
        put(o, e->negated ? " IS NOT NULL)" : " IS NULL)");
        return;
    case VSG_EX_IN:
        if (!need_args(o, e, 2))
            return;
        put(o, "(");
        put_expr(o, e->args[0]);
        put(o, e->negated ? " NOT IN (" : " IN (");
        put_list(o, e, 1);
        put(o, "))");
        return;
    case VSG_EX_BETWEEN:
        if (!need_args(o, e, 3))
            return;
        put(o, "(");
        put_expr(o, e->args[0]);
        put(o, e->negated ? " NOT BETWEEN " : " BETWEEN ");
        put_expr(o, e->args[1]);
        put(o, " AND ");
        put_expr(o, e->args[2]);
        put(o, ")");
        return;
    case VSG_EX_LIKE:
        if (!need_args(o, e, 2))
            return;
        put(o, "(");
        put_expr(o, e->args[0]);
        put(o, e->negated ? " NOT" : "");
        put(o, e->op == VSG_OP_ILIKE ? " ILIKE " : " LIKE ");
        put_expr(o, e->args[1]);
        put(o, ")");
        return;
    case VSG_EX_FUNCTION:
        if (!e->name || (e->n_args > 0 && !need_args(o, e, e->n_args)))
        {
            o->failed = 1;
            return;
        }
        put(o, e->name);
        put(o, "(");
        put_list(o, e, 0);
        put(o, ")");
        return;
    }
    o->failed = 1;
}

char *vsg_expr_to_ogrsql(const vsg_expr *expr, vsg_column_rename_fn rename,
                         void *ctx)
{
    out_buf o = {NULL, 0, 0, 0, rename, ctx};

    put_expr(&o, expr);
    if (o.failed || !o.buf) {
        free(o.buf);
        return NULL;
    }
    return o.buf;
}
