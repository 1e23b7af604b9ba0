/*
 * statement.c - ownership and failure reporting: freeing statements and
 * expression trees, and turning a failure into a vsg_parse_error whose
 * message names what was expected and what was found, with a 1-based
 * line and column (columns count bytes).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsg_parse_internal.h"

void vsg_expr_free(vsg_expr *e)
{
    /* Recursion is bounded: parsed trees are at most VSG_MAX_HEIGHT high. */
    if (!e)
        return;
    for (int k = 0; k < e->n_args; k++)
        vsg_expr_free(e->args[k]);
    free(e->args);
    free(e->qualifier);
    free(e->name);
    free(e->text);
    free(e);
}

static void table_ref_clear(vsg_table_ref *t)
{
    free(t->dataset);
    free(t->layer);
    free(t->alias);
}

void vsg_statement_free(vsg_statement *stmt)
{
    if (!stmt)
        return;
    for (int k = 0; k < stmt->n_items; k++) {
        vsg_expr_free(stmt->items[k].expr);
        free(stmt->items[k].alias);
    }
    free(stmt->items);
    table_ref_clear(&stmt->input);
    table_ref_clear(&stmt->method);
    vsg_expr_free(stmt->join_geom[0]);
    vsg_expr_free(stmt->join_geom[1]);
    vsg_expr_free(stmt->where);
    for (int k = 0; k < stmt->n_group_by; k++)
        vsg_expr_free(stmt->group_by[k]);
    free(stmt->group_by);
    for (int k = 0; k < stmt->n_options; k++)
        free(stmt->options[k]);
    free(stmt->options);
    free(stmt);
}

int vsg_strcasecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'a' && ca <= 'z')
            ca -= 'a' - 'A';
        if (cb >= 'a' && cb <= 'z')
            cb -= 'a' - 'A';
        if (ca != cb || ca == 0)
            return ca - cb;
    }
}

int vsg_fail(vsg_parser *p, vsg_parse_result rc, int pos, const char *fmt, ...)
{
    va_list ap;
    int line = 1, col = 1;

    if (p->rc != VSG_PARSE_OK)
        return -1; /* the first failure is the root cause */
    p->rc = rc;
    if (!p->err)
        return -1;
    for (int k = 0; k < pos && p->src && p->src[k]; k++) {
        if (p->src[k] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    p->err->pos = pos;
    p->err->line = line;
    p->err->column = col;
    va_start(ap, fmt);
    vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
    va_end(ap);
    return -1;
}

int vsg_nomem(vsg_parser *p)
{
    const vsg_token *t = &p->toks[p->i];
    return vsg_fail(p, VSG_PARSE_NOMEM, t->pos, "out of memory");
}

void vsg_describe_token(const vsg_parser *p, const vsg_token *t, char *buf,
                        size_t size)
{
    /* Long tokens are cut, at a UTF-8 character boundary, and control
     * bytes are replaced, so that the message stays one readable line. */
    const size_t max_shown = 40;
    size_t n = (size_t)t->len, o = 0;
    const char *s = p->src + t->pos;
    int cut = 0, quoted;

    if (t->type == TK_END) {
        snprintf(buf, size, "end of statement");
        return;
    }
    if (n > max_shown) {
        n = max_shown;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        cut = 1;
    }
    if (size < 8)
        return;
    /* Strings and quoted identifiers show their own quotes. */
    quoted = t->type == TK_STRING || t->type == TK_QIDENT;
    if (!quoted)
        buf[o++] = '\'';
    for (size_t k = 0; k < n && o + 6 < size; k++) {
        unsigned char c = (unsigned char)s[k];
        buf[o++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    if (cut && o + 6 < size) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    if (!quoted)
        buf[o++] = '\'';
    buf[o] = '\0';
}

int vsg_fail_expected(vsg_parser *p, const char *what)
{
    const vsg_token *t = &p->toks[p->i];
    char found[64];

    if (t->type == TK_ERROR)
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, t->pos, "%s",
                        p->lex_error ? p->lex_error : "lexical error");
    if (t->type == TK_UNSUPPORTED && p->in_construct == 0)
        return vsg_fail_unsupported(p, NULL);
    vsg_describe_token(p, t, found, sizeof found);
    return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, t->pos, "expected %s, found %s",
                    what, found);
}

int vsg_fail_unsupported(vsg_parser *p, const char *what)
{
    const vsg_token *t = &p->toks[p->i];
    char found[64];

    vsg_describe_token(p, t, found, sizeof found);
    if (p->in_construct > 0)
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, t->pos,
                        "%s is not allowed here, found %s",
                        what ? what : found, found);
    return vsg_fail(p, VSG_PARSE_NOT_VSGPU, t->pos,
                    "%s is not supported by the VSGPU dialect",
                    what ? what : found);
}
