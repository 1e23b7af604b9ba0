/*
 * tablefunc.c - the table functions of the VSGPU dialect,
 *
 *   ST_Intersection(layer, layer {, 'KEY=VALUE'})
 *   ST_Clip(layer, layer {, 'KEY=VALUE'})
 *   ST_ClipByRect(layer, number, number, number, number {, 'KEY=VALUE'})
 *   layer = ['dataset path' .] name
 *
 * Everything inside these parentheses is our own construct: a failure
 * there is a syntax error, never NOT_VSGPU (p->in_construct).
 *
 * Rectangle bounds are converted without the C library's locale (a host
 * such as QGIS may run with a decimal comma).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsg_parse_internal.h"

/* ['dataset' .] layer, without alias. */
int vsg_parse_layer(vsg_parser *p, vsg_table_ref *t)
{
    t->pos = cur(p)->pos;
    if (cur(p)->type == TK_STRING) {
        if (peek(p, 1)->type != TK_DOT)
            return vsg_fail_unsupported(
                p, "a string as a layer name (write \"name\", or "
                   "'dataset'.layer for a layer of another dataset)");
        if (cur(p)->len <= 2)
            return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, cur(p)->pos,
                            "empty dataset path before '.'");
        if (vsg_take_value(p, &t->dataset) < 0)
            return -1;
        advance(p); /* . */
        if (!at_name(p))
            return vsg_fail_expected(p, "a layer name after the dataset path");
    } else if (!at_name(p)) {
        return vsg_fail_expected(p, "a layer name");
    }
    if (cur(p)->type == TK_QIDENT && cur(p)->len <= 2)
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, cur(p)->pos,
                        "empty layer name");
    if (vsg_take_value(p, &t->layer) < 0)
        return -1;
    if (cur(p)->type == TK_DOT && !t->dataset)
        return vsg_fail_unsupported(p, "a schema-qualified table name");
    return 0;
}

/* Locale-independent conversion of a number token: the digits are handed
 * to strtod as an integer mantissa with an exponent, so that no decimal
 * separator is involved. Returns 0, or -1 on allocation failure. */
static int number_value(vsg_parser *p, const vsg_token *t, double *out)
{
    const char *s = p->src + t->pos;
    char *buf = malloc((size_t)t->len + 32);
    size_t o = 0;
    long exp10 = 0;
    int k = 0, after_dot = 0;

    if (!buf)
        return vsg_nomem(p);
    for (; k < t->len && s[k] != 'e' && s[k] != 'E'; k++) {
        if (s[k] == '.') {
            after_dot = 1;
            continue;
        }
        buf[o++] = s[k];
        if (after_dot)
            exp10--;
    }
    if (o == 0)
        buf[o++] = '0';
    if (k < t->len) {
        long e = 0;
        int sign = 1;
        k++;
        if (s[k] == '+' || s[k] == '-')
            sign = s[k++] == '-' ? -1 : 1;
        for (; k < t->len; k++)
            if (e < 100000)
                e = e * 10 + (s[k] - '0');
        exp10 += sign * e;
    }
    snprintf(buf + o, 32, "e%ld", exp10);
    *out = strtod(buf, NULL);
    free(buf);
    return 0;
}

/* [+|-] number inside ST_ClipByRect; name says which bound. */
static int parse_bound(vsg_parser *p, const char *name, double *out)
{
    char what[96];
    double sign = 1.0;
    const vsg_token *t;

    if (cur(p)->type == TK_MINUS || cur(p)->type == TK_PLUS) {
        sign = cur(p)->type == TK_MINUS ? -1.0 : 1.0;
        advance(p);
    }
    t = cur(p);
    if (t->type != TK_INTEGER && t->type != TK_REAL) {
        snprintf(what, sizeof what, "a number (%s) in ST_ClipByRect", name);
        return vsg_fail_expected(p, what);
    }
    if (number_value(p, t, out) < 0)
        return -1;
    *out *= sign;
    if (!isfinite(*out))
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, t->pos,
                        "%s of ST_ClipByRect is out of range", name);
    advance(p);
    return 0;
}

static int add_option(vsg_parser *p, vsg_statement *s)
{
    char **opts;
    char *v = vsg_tok_value(p, cur(p));
    const char *eq;

    if (!v)
        return vsg_nomem(p);
    eq = strchr(v, '=');
    if (!eq || eq == v) {
        free(v);
        return vsg_fail_expected(p, "an option string 'KEY=VALUE'");
    }
    opts = realloc(s->options, (size_t)(s->n_options + 1) * sizeof *opts);
    if (!opts) {
        free(v);
        return vsg_nomem(p);
    }
    s->options = opts;
    s->options[s->n_options++] = v;
    advance(p);
    return 0;
}

static int parse_rect(vsg_parser *p, vsg_statement *s, const char *fn)
{
    static const char *const names[4] = {"xmin", "ymin", "xmax", "ymax"};
    char what[128];
    int xmax_pos = 0, ymax_pos = 0;

    for (int k = 0; k < 4; k++) {
        if (cur(p)->type != TK_COMMA) {
            snprintf(what, sizeof what,
                     "',' and 4 numbers (xmin, ymin, xmax, ymax) after the "
                     "layer of %s", fn);
            return vsg_fail_expected(p, what);
        }
        advance(p);
        if (k == 2)
            xmax_pos = cur(p)->pos;
        if (k == 3)
            ymax_pos = cur(p)->pos;
        if (parse_bound(p, names[k], &s->rect[k]) < 0)
            return -1;
    }
    if (s->rect[0] > s->rect[2])
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, xmax_pos,
                        "xmin is greater than xmax in %s", fn);
    if (s->rect[1] > s->rect[3])
        return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, ymax_pos,
                        "ymin is greater than ymax in %s", fn);
    return 0;
}

/* ST_Intersection(a, b {, 'K=V'}), ST_Clip(...), ST_ClipByRect(a, x0, y0,
 * x1, y1 {, 'K=V'}); the function name is the current token. */
int vsg_parse_table_function(vsg_parser *p, vsg_statement *s)
{
    const char *fn;
    char what[128];

    if (is_kw(p, "ST_Intersection")) {
        s->kind = VSG_STMT_INTERSECTION;
        fn = "ST_Intersection";
    } else if (is_kw(p, "ST_Clip")) {
        s->kind = VSG_STMT_CLIP;
        fn = "ST_Clip";
    } else {
        s->kind = VSG_STMT_CLIP_RECT;
        fn = "ST_ClipByRect";
    }
    p->in_construct++;
    advance(p);
    advance(p); /* ( */
    if (vsg_parse_layer(p, &s->input) < 0)
        return -1;
    if (s->kind == VSG_STMT_CLIP_RECT) {
        if (parse_rect(p, s, fn) < 0)
            return -1;
    } else {
        if (cur(p)->type != TK_COMMA) {
            snprintf(what, sizeof what,
                     "',' and the method layer after the input layer of %s",
                     fn);
            return vsg_fail_expected(p, what);
        }
        advance(p);
        if (vsg_parse_layer(p, &s->method) < 0)
            return -1;
    }
    while (cur(p)->type == TK_COMMA) {
        advance(p);
        if (cur(p)->type != TK_STRING) {
            snprintf(what, sizeof what,
                     "an option string 'KEY=VALUE' in the arguments of %s",
                     fn);
            return vsg_fail_expected(p, what);
        }
        if (add_option(p, s) < 0)
            return -1;
    }
    if (cur(p)->type != TK_RPAREN) {
        snprintf(what, sizeof what, "')' after the arguments of %s", fn);
        return vsg_fail_expected(p, what);
    }
    advance(p);
    if (at_name(p) || is_kw(p, "AS"))
        return vsg_fail_expected(p, "WHERE or the end of the statement "
                                    "(a table function takes no alias)");
    p->in_construct--;
    s->geom_item = -1;
    return 0;
}

