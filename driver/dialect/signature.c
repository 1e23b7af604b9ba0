/*
 * signature.c - whether statement text calls a construct that only the
 * VSGPU dialect has, read from its tokens alone.
 *
 * The driver's DIALECT=VSGPU open option sends statements that come with no
 * dialect to the VSGPU parser first. Programs such as QGIS send their own
 * SQL that way too, and the parser may reject some of it as a syntax error
 * (its grammar is narrower than SQLite's). Such a statement goes on to the
 * wrapped dataset unchanged, unless its text shows that it was written for
 * VSGPU: then the VSGPU syntax error, with its position, is more useful to
 * the user than whatever the wrapped dataset would make of it (SQLite turns
 * a US counties dissolve into three NULL states). This function is that
 * test; it needs no valid statement, only tokens.
 */
#include <stdlib.h>

#include "vsg_parse_internal.h"

static int is_word(const vsg_parser *p, int i, const char *kw)
{
    return i < p->n_toks && vsg_tok_is(p, &p->toks[i], kw);
}

static int is_type(const vsg_parser *p, int i, vsg_tok_type type)
{
    return i < p->n_toks && p->toks[i].type == type;
}

/* FROM ST_Intersection( / ST_Clip( / ST_ClipByRect( at token i. */
static int table_function_at(const vsg_parser *p, int i)
{
    return is_word(p, i, "FROM") &&
           (is_word(p, i + 1, "ST_Intersection") ||
            is_word(p, i + 1, "ST_Clip") ||
            is_word(p, i + 1, "ST_ClipByRect")) &&
           is_type(p, i + 2, TK_LPAREN);
}

int vsg_sql_uses_vsgpu_construct(const char *sql)
{
    vsg_parser p = {0};
    int has_union = 0, has_group_by = 0, found = 0;

    if (!sql)
        return 0;
    p.src = sql;
    if (vsg_lex(sql, &p.toks, &p.n_toks, &p.lex_error) < 0)
        return 0;
    for (int i = 0; i < p.n_toks && !found; i++) {
        if (table_function_at(&p, i))
            found = 1;
        if (is_word(&p, i, "ST_Union") && is_type(&p, i + 1, TK_LPAREN))
            has_union = 1;
        if (is_word(&p, i, "GROUP") && is_word(&p, i + 1, "BY"))
            has_group_by = 1;
    }
    free(p.toks);
    return found || (has_union && has_group_by);
}
