/*
 * ogrvsgpuselect.cpp - the select list of each statement form, bound to
 * the output schema of docs/semantics.md ("Field naming").
 */
#include "ogrvsgpubinder.h"

#include "cpl_conv.h"
#include "cpl_string.h"

#include <cerrno>
#include <climits>
#include <cstdlib>

namespace vsgpu
{

namespace
{

bool IsGenericGeometryName(const char *name)
{
    return EQUAL(name, "geom") || EQUAL(name, "geometry") ||
           EQUAL(name, "_ogr_geometry_") || EQUAL(name, "shape");
}

/* An integer literal, possibly signed. */
bool IntegerLiteral(const vsg_expr *e, int *out)
{
    int sign = 1;
    if (e && e->kind == VSG_EX_UNARY && e->n_args == 1 &&
        (e->op == VSG_OP_NEG || e->op == VSG_OP_PLUS))
    {
        sign = e->op == VSG_OP_NEG ? -1 : 1;
        e = e->args[0];
    }
    if (e == nullptr || e->kind != VSG_EX_INTEGER || e->text == nullptr)
        return false;
    errno = 0;
    char *end = nullptr;
    const long long v = strtoll(e->text, &end, 10);
    if (errno != 0 || end == e->text || *end != '\0' || v > INT_MAX)
        return false;
    *out = static_cast<int>(sign * v);
    return true;
}

bool SameKey(const GroupKey &a, const GroupKey &b)
{
    return a.kind == b.kind && a.field == b.field &&
           (a.kind != KeyKind::Substr ||
            (a.start == b.start && a.has_length == b.has_length &&
             (!a.has_length || a.length == b.length)));
}

bool IsCountStar(const vsg_expr *e)
{
    return e->kind == VSG_EX_FUNCTION && e->name && EQUAL(e->name, "count") &&
           e->n_args == 1 && e->args[0]->kind == VSG_EX_STAR;
}

}  // namespace

std::string Binder::SideFieldName(int side, int field) const
{
    const Source &src = side == 0 ? m_plan->input : m_plan->method;
    const char *name = src.layer->GetLayerDefn()->GetFieldDefn(field)->GetNameRef();
    const Options &o = m_plan->opts;
    /* As OGRLayer::Intersection: a given prefix (even an empty one) goes
     * on every field of its side, and turns the automatic input_/method_
     * prefixes of colliding names off on both sides. */
    if (o.has_input_prefix || o.has_method_prefix)
    {
        if (side == 0 && o.has_input_prefix)
            return o.input_prefix + name;
        if (side == 1 && o.has_method_prefix)
            return o.method_prefix + name;
        return name;
    }
    const Source &other = side == 0 ? m_plan->method : m_plan->input;
    if (other.layer && other.layer->GetLayerDefn()->GetFieldIndex(name) >= 0)
        return std::string(side == 0 ? "input_" : "method_") + name;
    return name;
}

std::vector<Candidate> Binder::TableFunctionFields()
{
    std::vector<Candidate> out;
    const bool named = m_plan->op == Op::Intersection;
    for (int s = 0; s < (named ? 2 : 1); ++s)
    {
        OGRFeatureDefn *defn = Side(s).layer->GetLayerDefn();
        for (int f = 0; f < defn->GetFieldCount(); ++f)
        {
            Candidate c;
            c.name = named ? SideFieldName(s, f)
                           : std::string(defn->GetFieldDefn(f)->GetNameRef());
            c.src.kind = s == 0 ? OutField::Input : OutField::Method;
            c.src.index = f;
            out.push_back(c);
        }
    }
    return out;
}

bool Binder::AddOutputField(const std::string &name, const OutField &src,
                            const OGRFieldDefn *model, OGRFieldType type)
{
    OGRFeatureDefn *defn = m_plan->defn;
    if (defn->GetFieldIndex(name.c_str()) >= 0)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: duplicate output column '%s': use AS to rename one",
                 name.c_str());
        return false;
    }
    OGRFieldDefn fld(name.c_str(), type);
    if (model)
    {
        OGRFieldDefn copy(model);
        copy.SetName(name.c_str());
        defn->AddFieldDefn(&copy);
    }
    else
        defn->AddFieldDefn(&fld);
    m_plan->fields.push_back(src);
    return true;
}

static const OGRFieldDefn *ModelOf(Plan *plan, const OutField &src)
{
    if (src.kind == OutField::Input)
        return plan->input.layer->GetLayerDefn()->GetFieldDefn(src.index);
    if (src.kind == OutField::Method)
        return plan->method.layer->GetLayerDefn()->GetFieldDefn(src.index);
    return nullptr;
}

static void NewDefn(Plan *plan)
{
    plan->defn = new OGRFeatureDefn("SELECT");
    plan->defn->Reference();
}

/* ---- ST_Intersection(a, b), ST_Clip(a, b), ST_ClipByRect(a, ...) --------- */

/* The side a qualified star names (0 input, 1 method), -1 for a bare
 * '*'; false, with the error reported, for an unknown qualifier. */
bool Binder::StarSide(const vsg_expr *e, int *side)
{
    *side = e->qualifier ? SideOfQualifier(e->qualifier) : -1;
    if (e->qualifier && *side < 0)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: '%s.*': no layer or alias '%s' in the statement",
                 e->qualifier, e->qualifier);
        return false;
    }
    return true;
}

BindResult Binder::BindTableFunction()
{
    NewDefn(m_plan);
    const std::vector<Candidate> cands = TableFunctionFields();
    m_where_names = cands;
    const char *geom_alias = nullptr;
    for (int i = 0; i < m_stmt->n_items; ++i)
    {
        const vsg_select_item &item = m_stmt->items[i];
        const vsg_expr *e = item.expr;
        if (e->kind == VSG_EX_STAR)
        {
            int side = -1;
            if (!StarSide(e, &side))
                return BindResult::Failed;
            for (const Candidate &c : cands)
            {
                const int cs = c.src.kind == OutField::Method ? 1 : 0;
                if (side >= 0 && cs != side)
                    continue;
                if (!AddOutputField(c.name, c.src, ModelOf(m_plan, c.src),
                                    OFTString))
                    return BindResult::Failed;
            }
            continue;
        }
        if (e->kind != VSG_EX_COLUMN || e->name == nullptr)
        {
            CPLError(CE_Failure, CPLE_NotSupported,
                     "VSGPU: the select list of %s(...) may hold only *, "
                     "columns and the geometry column, not '%s'",
                     OpName(m_plan->op), ExprText(e).c_str());
            return BindResult::Failed;
        }
        /* the geometry column */
        bool is_field = false;
        for (const Candidate &c : cands)
            is_field |= EQUAL(c.name.c_str(), e->name);
        const int gside = e->qualifier ? SideOfQualifier(e->qualifier) : 0;
        if (!is_field && gside >= 0 &&
            (IsGenericGeometryName(e->name) ||
             Side(gside).layer->GetLayerDefn()->GetGeomFieldIndex(e->name) >=
                 0))
        {
            if (item.alias)
                geom_alias = item.alias;
            continue;
        }
        ColumnRef ref;
        if (!ResolveColumn(e->qualifier, e->name, &ref))
            return BindResult::Failed;
        const Candidate *pick = nullptr;
        for (const Candidate &c : cands)
            if ((c.src.kind == OutField::Method ? 1 : 0) == ref.side &&
                c.src.index == ref.field)
                pick = &c;
        if (pick == nullptr)
        {
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: column '%s' is not an output field of %s(...)",
                     e->name, OpName(m_plan->op));
            return BindResult::Failed;
        }
        if (!AddOutputField(item.alias ? item.alias : pick->name, pick->src,
                            ModelOf(m_plan, pick->src), OFTString))
            return BindResult::Failed;
    }
    DescribeSource(&m_plan->input);
    if (m_plan->method.layer)
        DescribeSource(&m_plan->method);
    SetResultGeometry(m_plan, geom_alias);
    return BindResult::Ok;
}

/* ---- SELECT ..., ST_Intersection(a.g, b.g) FROM a JOIN b ON ... ------------ */

BindResult Binder::BindJoin()
{
    NewDefn(m_plan);
    if (!ResolveGeometry(m_stmt->join_geom[0], 0, &m_plan->input.geom_field) ||
        !ResolveGeometry(m_stmt->join_geom[1], 1, &m_plan->method.geom_field))
        return BindResult::Failed;
    const char *geom_alias = nullptr;
    for (int i = 0; i < m_stmt->n_items; ++i)
    {
        const vsg_select_item &item = m_stmt->items[i];
        const vsg_expr *e = item.expr;
        if (i == m_stmt->geom_item)
        {
            geom_alias = item.alias;
            continue;
        }
        if (e->kind == VSG_EX_STAR)
        {
            int side = -1;
            if (!StarSide(e, &side))
                return BindResult::Failed;
            for (int s = 0; s < 2; ++s)
            {
                if (side >= 0 && s != side)
                    continue;
                OGRFeatureDefn *defn = Side(s).layer->GetLayerDefn();
                for (int f = 0; f < defn->GetFieldCount(); ++f)
                {
                    OutField src;
                    src.kind = s == 0 ? OutField::Input : OutField::Method;
                    src.index = f;
                    if (!AddOutputField(SideFieldName(s, f), src,
                                        defn->GetFieldDefn(f), OFTString))
                        return BindResult::Failed;
                }
            }
            continue;
        }
        if (e->kind != VSG_EX_COLUMN || e->name == nullptr)
            return NotVSGPU("the select list of a VSGPU join holds only "
                            "columns, a.*, b.* and ST_Intersection(...); " +
                            ExprText(e) + " is not one");
        const int qside = e->qualifier ? SideOfQualifier(e->qualifier) : -1;
        for (int s = 0; s < 2; ++s)
        {
            if (qside >= 0 && s != qside)
                continue;
            OGRFeatureDefn *defn = Side(s).layer->GetLayerDefn();
            if (defn->GetFieldIndex(e->name) < 0 &&
                defn->GetGeomFieldIndex(e->name) >= 0)
                return NotVSGPU("the select list names the geometry column '" +
                                std::string(e->name) +
                                "' besides ST_Intersection(...)");
        }
        ColumnRef ref;
        if (!ResolveColumn(e->qualifier, e->name, &ref))
            return BindResult::Failed;
        if (ref.field < 0)
            return NotVSGPU("FID in the select list of a join");
        OutField src;
        src.kind = ref.side == 0 ? OutField::Input : OutField::Method;
        src.index = ref.field;
        const OGRFieldDefn *model = ModelOf(m_plan, src);
        if (!AddOutputField(item.alias ? item.alias : model->GetNameRef(), src,
                            model, OFTString))
            return BindResult::Failed;
    }
    DescribeSource(&m_plan->input);
    DescribeSource(&m_plan->method);
    SetResultGeometry(m_plan, geom_alias);
    return BindResult::Ok;
}

/* ---- SELECT keys, ST_Union(g) FROM a [WHERE] [GROUP BY keys] -------------- */

BindResult Binder::ResolveKey(const vsg_expr *e, GroupKey *key,
                              std::string *name)
{
    const char *fn = e->kind == VSG_EX_FUNCTION ? e->name : nullptr;
    const vsg_expr *col = e;
    if (fn)
    {
        if ((EQUAL(fn, "substr") || EQUAL(fn, "substring")) &&
            (e->n_args == 2 || e->n_args == 3))
        {
            key->kind = KeyKind::Substr;
            key->has_length = e->n_args == 3;
            if (!IntegerLiteral(e->args[1], &key->start) ||
                (key->has_length && !IntegerLiteral(e->args[2], &key->length)))
                return NotVSGPU("the GROUP BY key " + ExprText(e) +
                                " needs integer literals as substr arguments");
        }
        else if ((EQUAL(fn, "upper") || EQUAL(fn, "lower")) && e->n_args == 1)
            key->kind = EQUAL(fn, "upper") ? KeyKind::Upper : KeyKind::Lower;
        else
            return NotVSGPU("the GROUP BY key " + ExprText(e) +
                            " is not a column or substr/upper/lower of a "
                            "column");
        col = e->args[0];
    }
    if (col == nullptr || col->kind != VSG_EX_COLUMN || col->name == nullptr)
        return NotVSGPU("the GROUP BY key " + ExprText(e) +
                        " is not a column or substr/upper/lower of a column");
    ColumnRef ref;
    if (!ResolveColumn(col->qualifier, col->name, &ref))
        return BindResult::Failed;
    if (ref.field < 0)
        return NotVSGPU("FID as a GROUP BY key");
    key->field = ref.field;
    const char *fname =
        m_plan->input.layer->GetLayerDefn()->GetFieldDefn(ref.field)->GetNameRef();
    switch (key->kind)
    {
        case KeyKind::Column:
            *name = fname;
            break;
        case KeyKind::Substr:
            *name = key->has_length
                        ? CPLSPrintf("substr(%s,%d,%d)", fname, key->start,
                                     key->length)
                        : CPLSPrintf("substr(%s,%d)", fname, key->start);
            break;
        case KeyKind::Upper:
            *name = CPLSPrintf("upper(%s)", fname);
            break;
        case KeyKind::Lower:
            *name = CPLSPrintf("lower(%s)", fname);
            break;
    }
    return BindResult::Ok;
}

BindResult Binder::BindDissolve()
{
    NewDefn(m_plan);
    const int gi = m_stmt->geom_item;
    if (gi < 0 || gi >= m_stmt->n_items ||
        m_stmt->items[gi].expr->n_args < 1)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: no ST_Union(geometry) item in the select list");
        return BindResult::Failed;
    }
    if (!ResolveGeometry(m_stmt->items[gi].expr->args[0], 0,
                         &m_plan->input.geom_field))
        return BindResult::Failed;

    /* GROUP BY: ordinals, source columns, select aliases, key forms. */
    OGRFeatureDefn *in_defn = m_plan->input.layer->GetLayerDefn();
    for (int k = 0; k < m_stmt->n_group_by; ++k)
    {
        const vsg_expr *g = m_stmt->group_by[k];
        int ordinal = 0;
        if (g->kind == VSG_EX_INTEGER && IntegerLiteral(g, &ordinal))
        {
            if (ordinal < 1 || ordinal > m_stmt->n_items ||
                ordinal - 1 == gi || IsCountStar(m_stmt->items[ordinal - 1].expr))
            {
                CPLError(CE_Failure, CPLE_AppDefined,
                         "VSGPU: GROUP BY %d does not name a key of the "
                         "select list",
                         ordinal);
                return BindResult::Failed;
            }
            g = m_stmt->items[ordinal - 1].expr;
        }
        else if (g->kind == VSG_EX_COLUMN && g->qualifier == nullptr &&
                 g->name && in_defn->GetFieldIndex(g->name) < 0)
        {
            const char *alias = g->name;
            for (int i = 0; i < m_stmt->n_items; ++i)
                if (m_stmt->items[i].alias &&
                    EQUAL(m_stmt->items[i].alias, alias) && i != gi)
                {
                    g = m_stmt->items[i].expr;
                    break;
                }
        }
        GroupKey key;
        std::string name;
        const BindResult r = ResolveKey(g, &key, &name);
        if (r != BindResult::Ok)
            return r;
        m_plan->keys.push_back(key);
    }

    /* The select list: keys and COUNT(*), in order. */
    for (int i = 0; i < m_stmt->n_items; ++i)
    {
        if (i == gi)
            continue;
        const vsg_select_item &item = m_stmt->items[i];
        const vsg_expr *e = item.expr;
        if (IsCountStar(e))
        {
            OutField src;
            src.kind = OutField::Count;
            if (!AddOutputField(item.alias ? item.alias : "count", src,
                                nullptr, OFTInteger64))
                return BindResult::Failed;
            continue;
        }
        const bool key_form =
            e->kind == VSG_EX_COLUMN ||
            (e->kind == VSG_EX_FUNCTION && e->name &&
             (EQUAL(e->name, "substr") || EQUAL(e->name, "substring") ||
              EQUAL(e->name, "upper") || EQUAL(e->name, "lower")));
        if (!key_form)
            return NotVSGPU("VSGPU dissolves with ST_Union and COUNT(*) "
                            "only; " +
                            ExprText(e) + " is not supported");
        GroupKey key;
        std::string name;
        const BindResult r = ResolveKey(e, &key, &name);
        if (r != BindResult::Ok)
            return r;
        int found = -1;
        for (size_t k = 0; k < m_plan->keys.size() && found < 0; ++k)
            if (SameKey(key, m_plan->keys[k]))
                found = static_cast<int>(k);
        if (found < 0)
        {
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: %s in the select list is neither a GROUP BY "
                     "key nor an aggregate",
                     ExprText(e).c_str());
            return BindResult::Failed;
        }
        OutField src;
        src.kind = OutField::Key;
        src.index = found;
        const bool column = key.kind == KeyKind::Column;
        if (!AddOutputField(item.alias ? item.alias : name, src,
                            column ? in_defn->GetFieldDefn(key.field) : nullptr,
                            OFTString))
            return BindResult::Failed;
    }
    DescribeSource(&m_plan->input, true);
    SetResultGeometry(m_plan, m_stmt->items[gi].alias);
    return BindResult::Ok;
}

}  // namespace vsgpu
