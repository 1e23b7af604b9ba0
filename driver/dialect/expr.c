/*
 * expr.c - the expression parser: precedence climbing over the binary
 * operators, with NOT, the predicates (IS NULL, IN, BETWEEN, LIKE) and
 * unary signs handled at their levels.
 *
 * Levels, loosest first, as in SQLite:
 *   1 OR   2 AND   3 NOT (prefix)   4 = == != <> IS IN BETWEEN LIKE ILIKE
 *   5 < <= > >=   6 + -   7 * / %   8 ||   then unary - +, then primaries.
 * Binary operators are left-associative.
 *
 * Two bounds make any input safe: the recursion depth (VSG_MAX_NESTING)
 * and the height of every tree built (VSG_MAX_HEIGHT; left-associative
 * chains such as a AND b AND ... grow the tree without recursing). Both
 * are reported as the syntax error "expression nested too deeply".
 */
#include <stdlib.h>
#include <string.h>

#include "vsg_parse_internal.h"

/* Nodes are allocated with their height beside them; every node the parser
 * handles was made by vsg_expr_new, so node_height may look at it. The
 * public vsg_expr is the first member: free(e) frees the whole block. */
typedef struct {
    vsg_expr e;
    int height;
} node_block;

static int node_height(const vsg_expr *e)
{
    return ((const node_block *)(const void *)e)->height;
}

vsg_expr *vsg_expr_new(vsg_parser *p, vsg_expr_kind kind, int pos)
{
    node_block *b = calloc(1, sizeof *b);
    if (!b) {
        vsg_nomem(p);
        return NULL;
    }
    b->e.kind = kind;
    b->e.pos = pos;
    b->height = 1;
    return (vsg_expr *)(void *)b; /* == &b->e, the first member */
}

static int too_deep(vsg_parser *p, int pos)
{
    return vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, pos,
                    "expression nested too deeply (more than %d levels)",
                    VSG_MAX_NESTING);
}

int vsg_expr_add_arg(vsg_parser *p, vsg_expr *e, vsg_expr *arg)
{
    vsg_expr **args;
    node_block *b = (node_block *)(void *)e;

    args = realloc(e->args, (size_t)(e->n_args + 1) * sizeof *args);
    if (!args) {
        vsg_expr_free(arg);
        return vsg_nomem(p);
    }
    e->args = args;
    e->args[e->n_args++] = arg;
    if (node_height(arg) + 1 > b->height)
        b->height = node_height(arg) + 1;
    if (b->height > VSG_MAX_HEIGHT)
        return too_deep(p, arg->pos);
    return 0;
}

static vsg_expr *parse_binary(vsg_parser *p, int min_level);

/* A node with one or two operands; takes ownership of a and b (b may be
 * NULL) even on failure. */
static vsg_expr *make_node(vsg_parser *p, vsg_expr_kind kind, vsg_op_code op,
                           int pos, vsg_expr *a, vsg_expr *b)
{
    vsg_expr *e = vsg_expr_new(p, kind, pos);
    if (!e) {
        vsg_expr_free(a);
        vsg_expr_free(b);
        return NULL;
    }
    e->op = op;
    if (vsg_expr_add_arg(p, e, a) < 0) {
        vsg_expr_free(b);
        vsg_expr_free(e);
        return NULL;
    }
    if (b && vsg_expr_add_arg(p, e, b) < 0) {
        vsg_expr_free(e);
        return NULL;
    }
    return e;
}

/* The binary operator at the current token and its level; 0 if none. */
static int binary_level(const vsg_parser *p, vsg_op_code *op)
{
    switch (cur(p)->type) {
    case TK_EQ: *op = VSG_OP_EQ; return 4;
    case TK_NE: *op = VSG_OP_NE; return 4;
    case TK_LT: *op = VSG_OP_LT; return 5;
    case TK_LE: *op = VSG_OP_LE; return 5;
    case TK_GT: *op = VSG_OP_GT; return 5;
    case TK_GE: *op = VSG_OP_GE; return 5;
    case TK_PLUS: *op = VSG_OP_ADD; return 6;
    case TK_MINUS: *op = VSG_OP_SUB; return 6;
    case TK_STAR: *op = VSG_OP_MUL; return 7;
    case TK_SLASH: *op = VSG_OP_DIV; return 7;
    case TK_PERCENT: *op = VSG_OP_MOD; return 7;
    case TK_CONCAT: *op = VSG_OP_CONCAT; return 8;
    case TK_IDENT:
        if (is_kw(p, "OR")) { *op = VSG_OP_OR; return 1; }
        if (is_kw(p, "AND")) { *op = VSG_OP_AND; return 2; }
        return 0;
    default:
        return 0;
    }
}

/* Name [ . name ] with the first token current; a column, or with '('
 * after an unquoted name, a function call. */
/* expr (',' expr)* ')' appended to e's arguments, the ')' consumed. what:
 * the expectation named when neither ',' nor ')' follows. Returns -1 on
 * failure (error recorded; e keeps what was added, for the caller to free). */
static int parse_list_tail(vsg_parser *p, vsg_expr *e, const char *what)
{
    for (;;) {
        vsg_expr *arg = vsg_parse_expr(p);
        if (!arg || vsg_expr_add_arg(p, e, arg) < 0)
            return -1;
        if (cur(p)->type != TK_COMMA)
            break;
        advance(p);
    }
    if (cur(p)->type != TK_RPAREN) {
        vsg_fail_expected(p, what);
        return -1;
    }
    advance(p);
    return 0;
}

static vsg_expr *parse_name(vsg_parser *p)
{
    const vsg_token *t = cur(p);
    vsg_expr *e;

    if (t->type == TK_IDENT && peek(p, 1)->type == TK_LPAREN) {
        e = vsg_expr_new(p, VSG_EX_FUNCTION, t->pos);
        if (!e || !(e->name = vsg_tok_value(p, t))) {
            if (e)
                vsg_nomem(p);
            vsg_expr_free(e);
            return NULL;
        }
        advance(p);
        advance(p); /* ( */
        if (cur(p)->type == TK_STAR && peek(p, 1)->type == TK_RPAREN) {
            vsg_expr *star = vsg_expr_new(p, VSG_EX_STAR, cur(p)->pos);
            if (!star || vsg_expr_add_arg(p, e, star) < 0) {
                vsg_expr_free(e);
                return NULL;
            }
            advance(p);
        } else if (is_kw(p, "DISTINCT") || is_kw(p, "ALL")) {
            vsg_fail_unsupported(p, "DISTINCT in a function call");
            vsg_expr_free(e);
            return NULL;
        } else if (cur(p)->type != TK_RPAREN) {
            if (parse_list_tail(p, e, "',' or ')' in the arguments of a function") < 0) {
                vsg_expr_free(e);
                return NULL;
            }
            return e;
        }
        advance(p);
        return e;
    }

    e = vsg_expr_new(p, VSG_EX_COLUMN, t->pos);
    if (!e)
        return NULL;
    if (!(e->name = vsg_tok_value(p, t))) {
        vsg_nomem(p);
        vsg_expr_free(e);
        return NULL;
    }
    advance(p);
    if (cur(p)->type != TK_DOT)
        return e;
    advance(p);
    t = cur(p);
    if (t->type == TK_STAR) {
        vsg_fail(p, VSG_PARSE_SYNTAX_ERROR, t->pos,
                 "'*' is only allowed as a select item or in COUNT(*)");
        vsg_expr_free(e);
        return NULL;
    }
    if (t->type != TK_QIDENT &&
        (t->type != TK_IDENT || vsg_tok_is_reserved(p, t))) {
        vsg_fail_expected(p, "a column name after '.'");
        vsg_expr_free(e);
        return NULL;
    }
    e->qualifier = e->name;
    if (!(e->name = vsg_tok_value(p, t))) {
        vsg_nomem(p);
        vsg_expr_free(e);
        return NULL;
    }
    advance(p);
    if (cur(p)->type == TK_DOT) {
        vsg_fail_unsupported(p, "a three-part column name");
        vsg_expr_free(e);
        return NULL;
    }
    return e;
}

static vsg_expr *parse_literal(vsg_parser *p, vsg_expr_kind kind)
{
    vsg_expr *e = vsg_expr_new(p, kind, cur(p)->pos);
    if (!e)
        return NULL;
    if (kind != VSG_EX_NULL && !(e->text = vsg_tok_value(p, cur(p)))) {
        vsg_nomem(p);
        vsg_expr_free(e);
        return NULL;
    }
    advance(p);
    return e;
}

static vsg_expr *parse_primary(vsg_parser *p)
{
    const vsg_token *t = cur(p);
    vsg_expr *e;

    switch (t->type) {
    case TK_INTEGER: return parse_literal(p, VSG_EX_INTEGER);
    case TK_REAL: return parse_literal(p, VSG_EX_REAL);
    case TK_STRING: return parse_literal(p, VSG_EX_STRING);
    case TK_QIDENT: return parse_name(p);
    case TK_LPAREN:
        if (vsg_tok_is(p, peek(p, 1), "SELECT") ||
            vsg_tok_is(p, peek(p, 1), "WITH")) {
            advance(p);
            vsg_fail_unsupported(p, "a subquery");
            return NULL;
        }
        advance(p);
        e = vsg_parse_expr(p);
        if (e && cur(p)->type != TK_RPAREN) {
            vsg_fail_expected(p, "')'");
            vsg_expr_free(e);
            return NULL;
        }
        advance(p);
        return e;
    case TK_UNSUPPORTED:
        vsg_fail_unsupported(p, NULL);
        return NULL;
    case TK_IDENT:
        if (vsg_tok_is(p, t, "NULL"))
            return parse_literal(p, VSG_EX_NULL);
        if (vsg_tok_is(p, t, "CASE") || vsg_tok_is(p, t, "CAST") ||
            vsg_tok_is(p, t, "EXISTS")) {
            char what[64];
            vsg_describe_token(p, t, what, sizeof what);
            vsg_fail_unsupported(p, what);
            return NULL;
        }
        if (vsg_tok_is(p, t, "SELECT")) {
            vsg_fail_unsupported(p, "a subquery");
            return NULL;
        }
        if (!vsg_tok_is_reserved(p, t))
            return parse_name(p);
        /* fall through */
    default:
        vsg_fail_expected(p, "an expression");
        return NULL;
    }
}

static vsg_expr *parse_unary(vsg_parser *p)
{
    const vsg_token *t = cur(p);
    vsg_expr *operand;
    vsg_op_code op;

    if (t->type != TK_MINUS && t->type != TK_PLUS)
        return parse_primary(p);
    op = t->type == TK_MINUS ? VSG_OP_NEG : VSG_OP_PLUS;
    if (++p->nesting > VSG_MAX_NESTING) {
        too_deep(p, t->pos);
        return NULL;
    }
    advance(p);
    operand = parse_unary(p);
    p->nesting--;
    if (!operand)
        return NULL;
    return make_node(p, VSG_EX_UNARY, op, t->pos, operand, NULL);
}

/* IS [NOT] NULL, [NOT] IN (...), [NOT] BETWEEN, [NOT] [I]LIKE after left,
 * the current token being IS, NOT, IN, BETWEEN, LIKE or ILIKE. Takes
 * ownership of left. */
static vsg_expr *parse_predicate(vsg_parser *p, vsg_expr *left)
{
    int pos = left->pos, negated = 0;
    vsg_expr *e = NULL, *arg;

    if (is_kw(p, "IS")) {
        advance(p);
        if (is_kw(p, "NOT")) {
            negated = 1;
            advance(p);
        }
        if (!is_kw(p, "NULL")) {
            vsg_fail_unsupported(p, "IS other than IS [NOT] NULL");
            vsg_expr_free(left);
            return NULL;
        }
        advance(p);
        e = make_node(p, VSG_EX_IS_NULL, VSG_OP_NONE, pos, left, NULL);
        if (e)
            e->negated = negated;
        return e;
    }
    if (is_kw(p, "NOT")) {
        negated = 1;
        advance(p);
        if (is_kw(p, "NULL")) {
            vsg_fail_unsupported(p, "NOT NULL (use IS NOT NULL)");
            vsg_expr_free(left);
            return NULL;
        }
    }
    if (is_kw(p, "IN")) {
        advance(p);
        if (cur(p)->type != TK_LPAREN) {
            vsg_fail_expected(p, "'(' after IN");
            vsg_expr_free(left);
            return NULL;
        }
        if (vsg_tok_is(p, peek(p, 1), "SELECT") ||
            vsg_tok_is(p, peek(p, 1), "WITH")) {
            advance(p);
            vsg_fail_unsupported(p, "a subquery");
            vsg_expr_free(left);
            return NULL;
        }
        advance(p);
        e = make_node(p, VSG_EX_IN, VSG_OP_NONE, pos, left, NULL);
        if (!e)
            return NULL;
        if (parse_list_tail(p, e, "',' or ')' in the IN list") < 0) {
            vsg_expr_free(e);
            return NULL;
        }
    } else if (is_kw(p, "BETWEEN")) {
        advance(p);
        e = make_node(p, VSG_EX_BETWEEN, VSG_OP_NONE, pos, left, NULL);
        if (!e)
            return NULL;
        arg = parse_binary(p, 5);
        if (!arg || vsg_expr_add_arg(p, e, arg) < 0) {
            vsg_expr_free(e);
            return NULL;
        }
        if (!is_kw(p, "AND")) {
            vsg_fail_expected(p, "AND in BETWEEN ... AND ...");
            vsg_expr_free(e);
            return NULL;
        }
        advance(p);
        arg = parse_binary(p, 5);
        if (!arg || vsg_expr_add_arg(p, e, arg) < 0) {
            vsg_expr_free(e);
            return NULL;
        }
    } else if (is_kw(p, "LIKE") || is_kw(p, "ILIKE")) {
        vsg_op_code op = is_kw(p, "LIKE") ? VSG_OP_LIKE : VSG_OP_ILIKE;
        advance(p);
        arg = parse_binary(p, 5);
        if (!arg) {
            vsg_expr_free(left);
            return NULL;
        }
        e = make_node(p, VSG_EX_LIKE, op, pos, left, arg);
        if (e && is_kw(p, "ESCAPE")) {
            vsg_fail_unsupported(p, "LIKE ... ESCAPE");
            vsg_expr_free(e);
            return NULL;
        }
    } else {
        vsg_fail_expected(p, "IN, BETWEEN, LIKE or ILIKE after NOT");
        vsg_expr_free(left);
        return NULL;
    }
    if (e)
        e->negated = negated;
    return e;
}

static int at_predicate(const vsg_parser *p)
{
    return is_kw(p, "IS") || is_kw(p, "IN") || is_kw(p, "BETWEEN") ||
           is_kw(p, "LIKE") || is_kw(p, "ILIKE") || is_kw(p, "NOT");
}

static int at_unsupported_operator(const vsg_parser *p)
{
    return is_kw(p, "GLOB") || is_kw(p, "REGEXP") || is_kw(p, "MATCH") ||
           is_kw(p, "COLLATE") || is_kw(p, "ISNULL") || is_kw(p, "NOTNULL");
}

/* Parses operators of level >= min_level (see the file comment). */
static vsg_expr *parse_binary(vsg_parser *p, int min_level)
{
    const vsg_token *start = cur(p);
    vsg_expr *left;

    if (++p->nesting > VSG_MAX_NESTING) {
        too_deep(p, start->pos);
        return NULL;
    }
    if (min_level <= 3 && is_kw(p, "NOT")) {
        vsg_expr *operand;
        advance(p);
        operand = parse_binary(p, 3);
        left = operand ? make_node(p, VSG_EX_UNARY, VSG_OP_NOT, start->pos,
                                   operand, NULL)
                       : NULL;
    } else {
        left = parse_unary(p);
    }
    while (left) {
        vsg_op_code op = VSG_OP_NONE;
        int level = binary_level(p, &op);
        vsg_expr *right;

        if (level == 0 && min_level <= 4 && at_predicate(p)) {
            left = parse_predicate(p, left);
            continue;
        }
        if (level == 0 && at_unsupported_operator(p)) {
            char what[64];
            vsg_describe_token(p, cur(p), what, sizeof what);
            vsg_fail_unsupported(p, what);
            vsg_expr_free(left);
            left = NULL;
            break;
        }
        if (level == 0 || level < min_level)
            break;
        advance(p);
        right = parse_binary(p, level + 1);
        if (!right) {
            vsg_expr_free(left);
            left = NULL;
            break;
        }
        left = make_node(p, VSG_EX_BINARY, op, left->pos, left, right);
    }
    p->nesting--;
    return left;
}

vsg_expr *vsg_parse_expr(vsg_parser *p) { return parse_binary(p, 1); }
