/*
 * classify.c - decides which VSGPU statement a parsed SELECT is, and
 * checks the ST_ constructs that appear as ordinary expressions:
 *
 *   two tables + ST_Intersects(x.g, y.g) conjunct in ON / WHERE
 *     + one ST_Intersection(x.g, y.g) select item   -> JOIN_INTERSECTION
 *   one table + one ST_Union(g) select item         -> DISSOLVE
 *   anything else                                   -> NOT_VSGPU
 *
 * Errors inside our constructs (ST_Intersection with one argument, a
 * qualifier that names neither table, ST_Union(), a GROUP BY position out
 * of range) are syntax errors; SQL that is well formed but outside these
 * shapes (ST_Intersects under OR, ST_Union with a join, ST_Union of an
 * expression) is NOT_VSGPU, for the driver to hand to SQLite.
 */
#include <stdlib.h>
#include <string.h>

#include "vsg_parse_internal.h"

static int is_call(const vsg_expr *e, const char *name)
{
    return e && e->kind == VSG_EX_FUNCTION && e->name &&
           vsg_strcasecmp(e->name, name) == 0;
}

/* Whether name is called anywhere in e (trees are height-bounded). */
static int calls(const vsg_expr *e, const char *name)
{
    if (!e)
        return 0;
    if (is_call(e, name))
        return 1;
    for (int k = 0; k < e->n_args; k++)
        if (calls(e->args[k], name))
            return 1;
    return 0;
}

/* The single top-level select item calling fn: its index, -1 when none,
 * -2 when several (NOT_VSGPU recorded). */
static int find_item(vsg_parser *p, const vsg_statement *s, const char *fn)
{
    int found = -1;
    for (int k = 0; k < s->n_items; k++) {
        if (!is_call(s->items[k].expr, fn))
            continue;
        if (found >= 0) {
            vsg_fail(p, VSG_PARSE_NOT_VSGPU, s->items[k].pos,
                     "more than one %s in the select list is not supported "
                     "by the VSGPU dialect", fn);
            return -2;
        }
        found = k;
    }
    return found;
}

static const char *table_name(const vsg_table_ref *t)
{
    return t->alias ? t->alias : t->layer;
}

/* 0 when qualifier names the input table, 1 the method table, else -1. */
static int side_of(const vsg_statement *s, const char *qualifier)
{
    if (!qualifier)
        return -1;
    if (vsg_strcasecmp(qualifier, table_name(&s->input)) == 0)
        return 0;
    if (s->method.layer &&
        vsg_strcasecmp(qualifier, table_name(&s->method)) == 0)
        return 1;
    return -1;
}

/* Checks that call (ST_Intersection or ST_Intersects of a join) has two
 * column arguments, one of each table; sets side[k] to the table of
 * args[k]. */
static int check_pair(vsg_parser *p, const vsg_statement *s,
                      const vsg_expr *call, int side[2])
{
    if (call->n_args != 2)
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, call->pos,
                        "%s of a join takes two geometry columns, one of "
                        "each table, found %d argument%s", call->name,
                        call->n_args, call->n_args == 1 ? "" : "s");
    for (int k = 0; k < 2; k++) {
        const vsg_expr *a = call->args[k];
        if (a->kind != VSG_EX_COLUMN)
            return vsg_fail(p, VSG_PARSE_NOT_VSGPU, a->pos,
                            "%s of expressions other than geometry columns "
                            "is not supported by the VSGPU dialect",
                            call->name);
        side[k] = side_of(s, a->qualifier);
        if (side[k] < 0)
            return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, a->pos,
                            "expected a column qualified by '%s' or '%s' in "
                            "%s, found '%s%s%s'", table_name(&s->input),
                            table_name(&s->method), call->name,
                            a->qualifier ? a->qualifier : "",
                            a->qualifier ? "." : "", a->name);
    }
    if (side[0] == side[1])
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, call->args[1]->pos,
                        "%s takes one geometry column of each table, found "
                        "two of '%s'", call->name,
                        call->args[0]->qualifier);
    return 0;
}

/* Removes target from the AND tree e; returns what is left (NULL when
 * nothing). The AND nodes that lose an operand are freed. */
static vsg_expr *remove_conjunct(vsg_expr *e, const vsg_expr *target)
{
    vsg_expr *l, *r;
    if (e == target)
        return NULL;
    if (e->kind != VSG_EX_BINARY || e->op != VSG_OP_AND)
        return e;
    l = remove_conjunct(e->args[0], target);
    r = remove_conjunct(e->args[1], target);
    if (l && r) {
        e->args[0] = l;
        e->args[1] = r;
        return e;
    }
    e->n_args = 0; /* the operands live on in l or r */
    vsg_expr_free(e);
    return l ? l : r;
}

/* Finds the ST_Intersects conjunct of the AND tree cond (NULL when none,
 * *n counts them) and whether ST_Intersects appears elsewhere in cond. */
static vsg_expr *find_intersects(vsg_expr *cond, int *n, int *elsewhere)
{
    vsg_expr *found = NULL, *f;
    if (!cond)
        return NULL;
    if (is_call(cond, "ST_Intersects")) {
        (*n)++;
        return cond;
    }
    if (cond->kind == VSG_EX_BINARY && cond->op == VSG_OP_AND) {
        for (int k = 0; k < 2; k++)
            if ((f = find_intersects(cond->args[k], n, elsewhere)) != NULL)
                found = f;
        return found;
    }
    if (calls(cond, "ST_Intersects"))
        *elsewhere = 1;
    return NULL;
}

/* Takes the ST_Intersects conjunct out of *cond into s->join_geom. */
static int take_join_condition(vsg_parser *p, vsg_statement *s,
                               vsg_expr **cond, int comma, int pos)
{
    int n = 0, elsewhere = 0, side[2];
    vsg_expr *call = find_intersects(*cond, &n, &elsewhere);

    if (elsewhere)
        return vsg_fail(p, VSG_PARSE_NOT_VSGPU, pos,
                        "ST_Intersects combined with OR or NOT in the join "
                        "condition is not supported by the VSGPU dialect");
    if (n == 0)
        return vsg_fail(p, VSG_PARSE_NOT_VSGPU, pos,
                        comma ? "a join of two tables without "
                                "ST_Intersects(a.geom, b.geom) in WHERE is not "
                                "supported by the VSGPU dialect"
                              : "a join condition without ST_Intersects(a.geom, "
                                "b.geom) is not supported by the VSGPU dialect");
    if (n > 1)
        return vsg_fail(p, VSG_PARSE_NOT_VSGPU, pos,
                        "more than one ST_Intersects in the join condition is "
                        "not supported by the VSGPU dialect");
    if (check_pair(p, s, call, side) < 0)
        return -1;
    /* The columns move to join_geom, input side first. */
    s->join_geom[side[0]] = call->args[0];
    s->join_geom[side[1]] = call->args[1];
    call->n_args = 0;
    *cond = remove_conjunct(*cond, call);
    vsg_expr_free(call);
    return 0;
}

static int classify_join(vsg_parser *p, vsg_statement *s, int comma,
                         vsg_expr *on, int on_pos)
{
    int item, side[2];
    const vsg_expr *call;

    if (find_item(p, s, "ST_Union") != -1 || calls(s->where, "ST_Union")) {
        vsg_expr_free(on);
        return vsg_fail(p, VSG_PARSE_NOT_VSGPU, on_pos,
                        "ST_Union with a join is not supported by the VSGPU "
                        "dialect");
    }
    if (s->n_group_by > 0) {
        vsg_expr_free(on);
        return vsg_fail(p, VSG_PARSE_NOT_VSGPU, s->group_by[0]->pos,
                        "GROUP BY with a join is not supported by the VSGPU "
                        "dialect");
    }
    if (comma) {
        if (take_join_condition(p, s, &s->where, 1,
                                s->where ? s->where->pos : on_pos) < 0)
            return -1;
    } else {
        if (take_join_condition(p, s, &on, 0, on_pos) < 0) {
            vsg_expr_free(on);
            return -1;
        }
        if (on && s->where) {
            vsg_expr *both = vsg_expr_new(p, VSG_EX_BINARY, on->pos);
            if (!both) {
                vsg_expr_free(on);
                return -1;
            }
            both->op = VSG_OP_AND;
            if (vsg_expr_add_arg(p, both, on) < 0) {
                vsg_expr_free(both);
                return -1;
            }
            on = NULL;
            if (vsg_expr_add_arg(p, both, s->where) < 0) {
                s->where = NULL;
                vsg_expr_free(both);
                return -1;
            }
            s->where = both;
        } else if (on) {
            s->where = on;
        }
    }
    item = find_item(p, s, "ST_Intersection");
    if (item == -2)
        return -1;
    if (item < 0)
        return vsg_fail(p, VSG_PARSE_NOT_VSGPU, s->items[0].pos,
                        "a join without ST_Intersection(a.geom, b.geom) in "
                        "the select list is not supported by the VSGPU "
                        "dialect");
    call = s->items[item].expr;
    if (check_pair(p, s, call, side) < 0)
        return -1;
    for (int k = 0; k < 2; k++)
        if (vsg_strcasecmp(call->args[k]->name,
                           s->join_geom[side[k]]->name) != 0)
            return vsg_fail(p, VSG_PARSE_NOT_VSGPU, call->args[k]->pos,
                            "ST_Intersection and ST_Intersects on different "
                            "geometry columns are not supported by the VSGPU "
                            "dialect");
    s->kind = VSG_STMT_JOIN_INTERSECTION;
    s->geom_item = item;
    return 0;
}

/* GROUP BY positions (integer literals) must name a select item that is
 * not the ST_Union aggregate. */
static int check_group_by(vsg_parser *p, const vsg_statement *s)
{
    for (int k = 0; k < s->n_group_by; k++) {
        const vsg_expr *g = s->group_by[k];
        long v = 0;
        if (g->kind != VSG_EX_INTEGER)
            continue;
        for (const char *c = g->text; *c && v <= s->n_items; c++)
            v = v * 10 + (*c - '0');
        if (v < 1 || v > s->n_items)
            return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, g->pos,
                            "GROUP BY position %s is out of range: the select "
                            "list has %d item%s", g->text, s->n_items,
                            s->n_items == 1 ? "" : "s");
        if (v - 1 == s->geom_item)
            return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, g->pos,
                            "GROUP BY position %s refers to the ST_Union "
                            "aggregate", g->text);
    }
    return 0;
}

static int classify_dissolve(vsg_parser *p, vsg_statement *s)
{
    int item = find_item(p, s, "ST_Union");
    const vsg_expr *call, *arg;

    if (item == -2)
        return -1;
    if (item < 0)
        return vsg_fail(p, VSG_PARSE_NOT_VSGPU, s->items[0].pos,
                        "no ST_Intersection, ST_Clip, ST_ClipByRect or "
                        "ST_Union in a place the VSGPU dialect recognises");
    call = s->items[item].expr;
    if (call->n_args == 0)
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, call->pos,
                        "ST_Union needs a geometry column, found no argument");
    arg = call->args[0];
    if (arg->kind == VSG_EX_STAR)
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, arg->pos,
                        "ST_Union needs a geometry column, found '*'");
    if (call->n_args > 1)
        return vsg_fail(p, VSG_PARSE_NOT_VSGPU, call->pos,
                        "ST_Union of two geometries (not the aggregate) is "
                        "not supported by the VSGPU dialect");
    if (arg->kind != VSG_EX_COLUMN)
        return vsg_fail(p, VSG_PARSE_NOT_VSGPU, arg->pos,
                        "ST_Union of an expression other than a geometry "
                        "column is not supported by the VSGPU dialect");
    if (arg->qualifier && side_of(s, arg->qualifier) != 0)
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, arg->pos,
                        "expected a column of '%s' in ST_Union, found '%s.%s'",
                        table_name(&s->input), arg->qualifier, arg->name);
    s->kind = VSG_STMT_DISSOLVE;
    s->geom_item = item;
    return check_group_by(p, s);
}

int vsg_classify(vsg_parser *p, vsg_statement *s, int n_tables, int comma,
                 vsg_expr *on, int on_pos)
{
    if (n_tables == 0) {
        s->geom_item = -1;
        if (s->n_group_by > 0)
            return vsg_fail(p, VSG_PARSE_NOT_VSGPU, s->group_by[0]->pos,
                            "GROUP BY on the result of a table function is "
                            "not supported by the VSGPU dialect");
        for (int k = 0; k < s->n_items; k++)
            if (calls(s->items[k].expr, "ST_Union"))
                return vsg_fail(p, VSG_PARSE_NOT_VSGPU, s->items[k].pos,
                                "ST_Union of the result of a table function "
                                "is not supported by the VSGPU dialect");
        return 0;
    }
    if (n_tables == 2)
        return classify_join(p, s, comma, on, on_pos);
    vsg_expr_free(on);
    return classify_dissolve(p, s);
}
