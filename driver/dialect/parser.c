/*
 * parser.c - the statement grammar of the VSGPU dialect (docs/dialect.md):
 *
 *   statement  = SELECT items FROM from [WHERE expr] [GROUP BY expr {, expr}] [;]
 *   items      = item {, item};  item = * | name.* | expr [[AS] alias]
 *   from       = table_function | table [([INNER] JOIN table ON expr) | (, table)]
 *   table      = ['dataset path' .] layer [[AS] alias]
 *
 * The table functions (ST_Intersection, ST_Clip, ST_ClipByRect) are parsed
 * here; plain-table statements are parsed in full and then classified
 * (classify.c) as a join, a dissolve, or not a VSGPU statement.
 *
 * Result classes: words that start SQL we do not take (ORDER BY, LIMIT,
 * LEFT JOIN, subqueries, a first word other than SELECT...) give
 * NOT_VSGPU, so the driver can hand the text to SQLite; text no SQL would
 * accept, and any error inside an ST_ table function, give SYNTAX_ERROR.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsg_parse_internal.h"

/* Clauses and words that SQLite accepts where ours may end: NOT_VSGPU. */
static int fail_if_unsupported_clause(vsg_parser *p)
{
    static const struct {
        const char *kw, *what;
    } clauses[] = {
        {"ORDER", "ORDER BY"},   {"LIMIT", "LIMIT"},
        {"OFFSET", "OFFSET"},    {"HAVING", "HAVING"},
        {"UNION", "UNION"},      {"INTERSECT", "INTERSECT"},
        {"EXCEPT", "EXCEPT"},    {"WINDOW", "WINDOW"},
        {"LEFT", "LEFT JOIN"},   {"RIGHT", "RIGHT JOIN"},
        {"FULL", "FULL JOIN"},   {"CROSS", "CROSS JOIN"},
        {"NATURAL", "NATURAL JOIN"}, {"OUTER", "OUTER JOIN"},
        {"USING", "JOIN ... USING"}, {"INDEXED", "INDEXED BY"},
    };
    for (size_t k = 0; k < sizeof clauses / sizeof clauses[0]; k++)
        if (is_kw(p, clauses[k].kw))
            return vsg_fail_unsupported(p, clauses[k].what);
    return 0;
}

/* ---- select list ----------------------------------------------------- */

static int add_item(vsg_parser *p, vsg_statement *s, vsg_expr *e, int pos)
{
    vsg_select_item *items =
        realloc(s->items, (size_t)(s->n_items + 1) * sizeof *items);
    if (!items) {
        vsg_expr_free(e);
        return vsg_nomem(p);
    }
    s->items = items;
    s->items[s->n_items++] = (vsg_select_item){e, NULL, pos};
    return 0;
}

static int parse_alias(vsg_parser *p, char **alias)
{
    if (is_kw(p, "AS")) {
        advance(p);
        if (!at_name(p) && cur(p)->type != TK_STRING)
            return vsg_fail_expected(p, "an alias after AS");
        return vsg_take_value(p, alias);
    }
    if (at_name(p))
        return vsg_take_value(p, alias);
    return 0;
}

static int parse_select_item(vsg_parser *p, vsg_statement *s)
{
    const vsg_token *t = cur(p);
    vsg_expr *e;

    if (t->type == TK_STAR ||
        ((t->type == TK_QIDENT || (t->type == TK_IDENT &&
                                   !vsg_tok_is_reserved(p, t))) &&
         peek(p, 1)->type == TK_DOT && peek(p, 2)->type == TK_STAR)) {
        e = vsg_expr_new(p, VSG_EX_STAR, t->pos);
        if (!e)
            return -1;
        if (t->type != TK_STAR) {
            if (vsg_take_value(p, &e->qualifier) < 0) {
                vsg_expr_free(e);
                return -1;
            }
            advance(p); /* . */
        }
        advance(p); /* * */
        return add_item(p, s, e, t->pos);
    }
    e = vsg_parse_expr(p);
    if (!e || add_item(p, s, e, t->pos) < 0)
        return -1;
    if ((is_kw(p, "OVER") || is_kw(p, "FILTER")) &&
        peek(p, 1)->type == TK_LPAREN)
        return vsg_fail_unsupported(p, "a window function");
    return parse_alias(p, &s->items[s->n_items - 1].alias);
}

/* ---- FROM ------------------------------------------------------------ */

static int parse_table(vsg_parser *p, vsg_table_ref *t)
{
    if (cur(p)->type == TK_LPAREN) {
        if (vsg_tok_is(p, peek(p, 1), "SELECT") ||
            vsg_tok_is(p, peek(p, 1), "WITH")) {
            advance(p);
            return vsg_fail_unsupported(p, "a subquery");
        }
        return vsg_fail_unsupported(p, "a parenthesised FROM clause");
    }
    if (cur(p)->type == TK_IDENT && peek(p, 1)->type == TK_LPAREN &&
        !vsg_tok_is_reserved(p, cur(p))) {
        char what[96], name[64];
        vsg_describe_token(p, cur(p), name, sizeof name);
        snprintf(what, sizeof what, "the table-valued function %s", name);
        return vsg_fail_unsupported(p, what);
    }
    if (vsg_parse_layer(p, t) < 0)
        return -1;
    return parse_alias(p, &t->alias);
}

static int at_table_function(const vsg_parser *p)
{
    return peek(p, 1)->type == TK_LPAREN &&
           (is_kw(p, "ST_Intersection") || is_kw(p, "ST_Clip") ||
            is_kw(p, "ST_ClipByRect"));
}

/* Plain tables: one, a comma join or an [INNER] JOIN ... ON. Sets
 * *n_tables, *comma, and *on to the ON condition (owned by the caller). */
static int parse_tables(vsg_parser *p, vsg_statement *s, int *n_tables,
                        int *comma, vsg_expr **on, int *on_pos)
{
    if (parse_table(p, &s->input) < 0)
        return -1;
    *n_tables = 1;
    if (cur(p)->type == TK_COMMA) {
        advance(p);
        if (parse_table(p, &s->method) < 0)
            return -1;
        *n_tables = 2;
        *comma = 1;
    } else if (is_kw(p, "JOIN") ||
               (is_kw(p, "INNER") && vsg_tok_is(p, peek(p, 1), "JOIN"))) {
        if (is_kw(p, "INNER"))
            advance(p);
        advance(p);
        if (parse_table(p, &s->method) < 0)
            return -1;
        *n_tables = 2;
        if (!is_kw(p, "ON")) {
            if (fail_if_unsupported_clause(p) < 0)
                return -1;
            return vsg_fail_unsupported(p, "a JOIN without ON");
        }
        advance(p);
        *on_pos = cur(p)->pos;
        if (!(*on = vsg_parse_expr(p)))
            return -1;
    }
    if (fail_if_unsupported_clause(p) < 0)
        return -1;
    if (cur(p)->type == TK_COMMA || is_kw(p, "JOIN") || is_kw(p, "INNER"))
        return vsg_fail_unsupported(p, "more than two tables");
    return 0;
}

/* ---- statement ------------------------------------------------------- */

static int parse_group_by(vsg_parser *p, vsg_statement *s)
{
    advance(p); /* GROUP */
    if (!is_kw(p, "BY"))
        return vsg_fail_expected(p, "BY after GROUP");
    advance(p);
    for (;;) {
        vsg_expr **keys;
        vsg_expr *e = vsg_parse_expr(p);
        if (!e)
            return -1;
        keys = realloc(s->group_by, (size_t)(s->n_group_by + 1) * sizeof *keys);
        if (!keys) {
            vsg_expr_free(e);
            return vsg_nomem(p);
        }
        s->group_by = keys;
        s->group_by[s->n_group_by++] = e;
        if (cur(p)->type != TK_COMMA)
            return 0;
        advance(p);
    }
}

static int parse_end(vsg_parser *p)
{
    if (fail_if_unsupported_clause(p) < 0)
        return -1;
    if (cur(p)->type == TK_SEMI) {
        advance(p);
        if (cur(p)->type != TK_END)
            return vsg_fail_expected(p, "end of statement after ';' (one "
                                        "statement at a time)");
    }
    if (cur(p)->type != TK_END)
        return vsg_fail_expected(p, "end of statement");
    return 0;
}

static int parse_select(vsg_parser *p, vsg_statement *s)
{
    int n_tables = 0, comma = 0, on_pos = 0, is_function;
    vsg_expr *on = NULL;

    advance(p); /* SELECT */
    if (is_kw(p, "DISTINCT") || is_kw(p, "ALL"))
        return vsg_fail_unsupported(p, "SELECT DISTINCT");
    do {
        if (s->n_items > 0)
            advance(p); /* , */
        if (parse_select_item(p, s) < 0)
            return -1;
    } while (cur(p)->type == TK_COMMA);
    if (!is_kw(p, "FROM")) {
        if (fail_if_unsupported_clause(p) < 0)
            return -1;
        return vsg_fail_expected(p, "',' or FROM after the select list");
    }
    advance(p);
    is_function = at_table_function(p);
    if (is_function ? vsg_parse_table_function(p, s) < 0
                    : parse_tables(p, s, &n_tables, &comma, &on, &on_pos) < 0) {
        vsg_expr_free(on);
        return -1;
    }
    if (is_kw(p, "WHERE")) {
        advance(p);
        if (!(s->where = vsg_parse_expr(p))) {
            vsg_expr_free(on);
            return -1;
        }
    }
    if (is_kw(p, "GROUP") && parse_group_by(p, s) < 0) {
        vsg_expr_free(on);
        return -1;
    }
    if (parse_end(p) < 0) {
        vsg_expr_free(on);
        return -1;
    }
    return vsg_classify(p, s, n_tables, comma, on, on_pos);
}

static int parse_statement(vsg_parser *p, vsg_statement *s)
{
    const vsg_token *t = cur(p);
    char found[64];

    while (cur(p)->type == TK_SEMI)
        advance(p);
    t = cur(p);
    if (t->type == TK_END)
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, t->pos, "empty statement");
    if (vsg_tok_is(p, t, "SELECT"))
        return parse_select(p, s);
    if (t->type == TK_IDENT) {
        vsg_describe_token(p, t, found, sizeof found);
        return vsg_fail(p, VSG_PARSE_NOT_VSGPU, t->pos,
                        "only SELECT statements are handled by the VSGPU "
                        "dialect, found %s", found);
    }
    return vsg_fail_expected(p, "SELECT");
}

vsg_parse_result vsg_sql_parse(const char *sql, vsg_statement **out,
                               vsg_parse_error *err)
{
    vsg_parser p;
    vsg_statement *s = NULL;
    vsg_token end = {TK_END, 0, 0};

    memset(&p, 0, sizeof p);
    p.src = sql ? sql : "";
    p.err = err;
    p.toks = &end;
    p.n_toks = 1;
    if (err)
        memset(err, 0, sizeof *err);
    if (out)
        *out = NULL;
    if (strlen(p.src) > (size_t)INT_MAX / 2) {
        vsg_fail(&p, VSG_PARSE_SYNTAX_ERROR, 0, "statement too long");
        return p.rc;
    }
    if (vsg_lex(p.src, &p.toks, &p.n_toks, &p.lex_error) < 0) {
        p.toks = &end;
        p.n_toks = 1;
        vsg_nomem(&p);
        return p.rc;
    }
    s = calloc(1, sizeof *s);
    if (!s)
        vsg_nomem(&p);
    else if (parse_statement(&p, s) == 0 && p.rc == VSG_PARSE_OK && out)
        *out = s;
    if (p.rc == VSG_PARSE_OK && !out)
        vsg_statement_free(s);
    else if (p.rc != VSG_PARSE_OK)
        vsg_statement_free(s);
    free(p.toks);
    return p.rc;
}
