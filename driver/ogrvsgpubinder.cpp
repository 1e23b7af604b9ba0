/*
 * ogrvsgpubinder.cpp - binds a parsed statement to OGR layers: resolves the
 * layers (of this dataset or of 'path'.layer), the columns
 * (case-insensitive, like OGR), the geometry arguments, the options, and
 * splits WHERE into one OGR SQL attribute filter per source layer.
 */
#include "ogrvsgpubinder.h"

#include <cmath>

#include "cpl_conv.h"
#include "cpl_string.h"

namespace vsgpu
{

vsg_operation EngineOp(Op op)
{
    switch (op)
    {
        case Op::Intersection:
        case Op::Join:
            return VSG_OP_INTERSECTION;
        case Op::Clip:
            return VSG_OP_CLIP;
        case Op::ClipRect:
            return VSG_OP_CLIP_RECT;
        case Op::Dissolve:
            return VSG_OP_UNION;
    }
    return VSG_OP_INTERSECTION;
}

const char *OpName(Op op)
{
    return vsg_operation_name(EngineOp(op));
}

Plan::~Plan()
{
    if (defn)
        defn->Release();
    /* owned datasets close after the layers that reference them are gone:
     * the result layer destroys the plan last. */
}

std::string Binder::ExprText(const vsg_expr *e)
{
    char *s = e ? vsg_expr_to_ogrsql(e, nullptr, nullptr) : nullptr;
    std::string out = s ? s : "?";
    free(s);
    return out;
}

/* ---- layers -------------------------------------------------------------- */

bool Binder::ResolveTable(const vsg_table_ref &ref, Source *src)
{
    GDALDataset *ds = m_ds;
    std::string ds_name = m_ds_name;
    if (ref.dataset)
    {
        ds_name = ref.dataset;
        auto it = m_opened.find(ds_name);
        if (it != m_opened.end())
            ds = it->second;
        else
        {
            bool refused = false;
            ds = OpenStatementDataset(ref.dataset,
                                      m_plan->opts.method_sources_any, &refused);
            if (refused)
                return false; /* the message says why */
            if (ds == nullptr)
            {
                CPLError(CE_Failure, CPLE_OpenFailed,
                         "VSGPU: cannot open the dataset '%s' named in the "
                         "statement",
                         ref.dataset);
                return false;
            }
            m_plan->owned.emplace_back(ds);
            m_opened[ds_name] = ds;
        }
    }
    OGRLayer *layer = ref.layer ? ds->GetLayerByName(ref.layer) : nullptr;
    if (layer == nullptr)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: layer '%s' not found in '%s'",
                 ref.layer ? ref.layer : "", ds_name.c_str());
        return false;
    }
    src->layer = layer;
    /* the dataset the layer is really in (the VSGPU dataset wraps it) */
    const auto *vsgpu_ds = dynamic_cast<const OGRVSGPUDataset *>(ds);
    src->dataset = vsgpu_ds ? vsgpu_ds->PlainSource() : ds;
    src->name = layer->GetName();
    src->alias = ref.alias ? ref.alias : ref.layer;
    src->geom_field = 0;
    src->strict_read = m_plan->opts.invalid == VSG_INVALID_ERROR;
    if (layer->GetLayerDefn()->GetGeomFieldCount() == 0)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: layer '%s' has no geometry column", ref.layer);
        return false;
    }
    return true;
}

int Binder::SideOfQualifier(const char *qualifier)
{
    for (int s = 0; s < Sides(); ++s)
        if (EQUAL(qualifier, Side(s).alias.c_str()))
            return s;
    for (int s = 0; s < Sides(); ++s)
        if (EQUAL(qualifier, Side(s).name.c_str()))
            return s;
    return -1;
}

/* ---- columns ------------------------------------------------------------- */

static int FindField(OGRLayer *layer, const char *name)
{
    return layer->GetLayerDefn()->GetFieldIndex(name);
}

bool Binder::ResolveColumn(const char *qualifier, const char *name,
                           ColumnRef *out)
{
    if (name == nullptr)
        return false;
    if (qualifier)
    {
        const int side = SideOfQualifier(qualifier);
        if (side < 0)
        {
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: '%s.%s': no layer or alias '%s' in the "
                     "statement",
                     qualifier, name, qualifier);
            return false;
        }
        const int f = FindField(Side(side).layer, name);
        if (f < 0 && !EQUAL(name, "FID"))
        {
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: field '%s' not found in layer '%s'", name,
                     Side(side).name.c_str());
            return false;
        }
        out->side = side;
        out->field = f;
        return true;
    }

    /* Table functions: the output names (input_/method_ prefixed ones
     * included) first. */
    for (const Candidate &c : m_where_names)
    {
        if (EQUAL(c.name.c_str(), name))
        {
            out->side = c.src.kind == OutField::Method ? 1 : 0;
            out->field = c.src.index;
            return true;
        }
    }

    int found = 0;
    for (int s = 0; s < Sides(); ++s)
    {
        const int f = FindField(Side(s).layer, name);
        if (f >= 0)
        {
            if (found++ == 0)
            {
                out->side = s;
                out->field = f;
            }
        }
    }
    if (found > 1)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: column '%s' is ambiguous: it is a field of '%s' "
                 "and of '%s' (qualify it)",
                 name, Side(0).alias.c_str(), Side(1).alias.c_str());
        return false;
    }
    if (found == 0)
    {
        if (EQUAL(name, "FID") && Sides() == 1)
        {
            out->side = 0;
            out->field = -1;
            return true;
        }
        if (Sides() == 1)
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: field '%s' not found in layer '%s'", name,
                     Side(0).name.c_str());
        else
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: field '%s' not found in layer '%s' nor in "
                     "layer '%s'",
                     name, Side(0).name.c_str(), Side(1).name.c_str());
        return false;
    }
    return true;
}

bool Binder::ResolveGeometry(const vsg_expr *e, int side, int *geom_field)
{
    Source &src = Side(side);
    if (e == nullptr || e->kind != VSG_EX_COLUMN || e->name == nullptr)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: the geometry argument '%s' must be the geometry "
                 "column of layer '%s'",
                 ExprText(e).c_str(), src.name.c_str());
        return false;
    }
    if (e->qualifier && SideOfQualifier(e->qualifier) != side)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: geometry column '%s.%s' does not belong to layer "
                 "'%s'",
                 e->qualifier, e->name, src.alias.c_str());
        return false;
    }
    OGRFeatureDefn *defn = src.layer->GetLayerDefn();
    int g = defn->GetGeomFieldIndex(e->name);
    if (g < 0 && (EQUAL(e->name, "geom") || EQUAL(e->name, "geometry") ||
                  EQUAL(e->name, "_ogr_geometry_") || EQUAL(e->name, "shape")))
        g = 0;
    if (g < 0)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: '%s' is not a geometry column of layer '%s' (its "
                 "geometry column is '%s')",
                 e->name, src.name.c_str(),
                 defn->GetGeomFieldDefn(0)->GetNameRef()[0]
                     ? defn->GetGeomFieldDefn(0)->GetNameRef()
                     : "geom");
        return false;
    }
    *geom_field = g;
    return true;
}

/* ---- WHERE ------------------------------------------------------------- */

static void SplitConjuncts(const vsg_expr *e,
                           std::vector<const vsg_expr *> *out)
{
    if (e && e->kind == VSG_EX_BINARY && e->op == VSG_OP_AND &&
        e->n_args == 2)
    {
        SplitConjuncts(e->args[0], out);
        SplitConjuncts(e->args[1], out);
    }
    else if (e)
        out->push_back(e);
}

bool Binder::CollectSides(const vsg_expr *e, std::set<int> *sides)
{
    if (e == nullptr)
        return true;
    if (e->kind == VSG_EX_COLUMN)
    {
        ColumnRef ref;
        if (!ResolveColumn(e->qualifier, e->name, &ref))
            return false;
        sides->insert(ref.side);
        return true;
    }
    for (int i = 0; i < e->n_args; ++i)
        if (!CollectSides(e->args[i], sides))
            return false;
    return true;
}

struct RenameCtx
{
    Binder *binder;
    int side;
};

const char *RenameColumn(void *ctx, const char *qualifier, const char *name)
{
    auto *rc = static_cast<RenameCtx *>(ctx);
    ColumnRef ref;
    if (!rc->binder->ResolveColumn(qualifier, name, &ref) ||
        ref.side != rc->side)
        return nullptr;
    if (ref.field < 0)
        return "FID";
    return rc->binder->Side(ref.side)
        .layer->GetLayerDefn()
        ->GetFieldDefn(ref.field)
        ->GetNameRef();
}

bool Binder::ApplyWhere(int side, const std::vector<const vsg_expr *> &conj)
{
    if (conj.empty())
        return true;
    Source &src = Side(side);
    RenameCtx ctx{this, side};
    std::string where;
    for (const vsg_expr *c : conj)
    {
        char *s = vsg_expr_to_ogrsql(c, RenameColumn, &ctx);
        if (s == nullptr)
        {
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: cannot write the WHERE condition '%s' for "
                     "layer '%s'",
                     ExprText(c).c_str(), src.name.c_str());
            return false;
        }
        if (!where.empty())
            where += " AND ";
        where += std::string("(") + s + ")";
        free(s);
    }
    CPLErrorReset();
    const OGRErr err = src.layer->SetAttributeFilter(where.c_str());
    const std::string ogr_msg = CPLGetLastErrorMsg();
    src.layer->SetAttributeFilter(nullptr);
    if (err != OGRERR_NONE)
    {
        CPLError(CE_Failure, CPLE_AppDefined,
                 "VSGPU: the WHERE condition %s on layer '%s' was rejected "
                 "by OGR SQL: %s",
                 where.c_str(), src.name.c_str(), ogr_msg.c_str());
        return false;
    }
    CPLDebug(VSGPU_DEBUG, "bind: WHERE on '%s': %s", src.name.c_str(),
             where.c_str());
    src.where = where;
    return true;
}

BindResult Binder::BindWhere()
{
    if (m_stmt->where == nullptr)
        return BindResult::Ok;
    std::vector<const vsg_expr *> all;
    SplitConjuncts(m_stmt->where, &all);
    std::vector<const vsg_expr *> per_side[2];
    for (const vsg_expr *c : all)
    {
        std::set<int> sides;
        if (!CollectSides(c, &sides))
            return BindResult::Failed;
        if (sides.size() > 1)
        {
            const std::string why =
                "the WHERE condition " + ExprText(c) +
                " uses columns of both layers and cannot be applied to one "
                "source layer";
            if (m_plan->op == Op::Join)
                return NotVSGPU(why);
            CPLError(CE_Failure, CPLE_NotSupported, "VSGPU: %s", why.c_str());
            return BindResult::Failed;
        }
        per_side[sides.empty() ? 0 : *sides.begin()].push_back(c);
    }
    for (int s = 0; s < Sides(); ++s)
        if (!ApplyWhere(s, per_side[s]))
            return BindResult::Failed;
    return BindResult::Ok;
}

/* ---- the whole statement --------------------------------------------------- */

BindResult Binder::Run(CSLConstList open_options)
{
    switch (m_stmt->kind)
    {
        case VSG_STMT_INTERSECTION:
            m_plan->op = Op::Intersection;
            break;
        case VSG_STMT_CLIP:
            m_plan->op = Op::Clip;
            break;
        case VSG_STMT_CLIP_RECT:
            m_plan->op = Op::ClipRect;
            break;
        case VSG_STMT_JOIN_INTERSECTION:
            m_plan->op = Op::Join;
            break;
        case VSG_STMT_DISSOLVE:
            m_plan->op = Op::Dissolve;
            break;
        default:
            return NotVSGPU("unknown statement kind");
    }
    if (!ResolveOptions(m_stmt->options, m_stmt->n_options, open_options,
                        &m_plan->opts))
        return BindResult::Failed;

    if (!ResolveTable(m_stmt->input, &m_plan->input))
        return BindResult::Failed;
    const bool two_layers =
        m_plan->op == Op::Intersection || m_plan->op == Op::Clip ||
        m_plan->op == Op::Join;
    if (two_layers)
    {
        if (m_stmt->method.layer == nullptr)
        {
            CPLError(CE_Failure, CPLE_AppDefined,
                     "VSGPU: %s needs a method layer",
                     OpName(m_plan->op));
            return BindResult::Failed;
        }
        if (!ResolveTable(m_stmt->method, &m_plan->method))
            return BindResult::Failed;
        if (!CheckCrs(m_plan))
            return BindResult::Failed;
    }
    if (m_plan->op == Op::ClipRect)
    {
        for (int i = 0; i < 4; ++i)
            m_plan->rect[i] = m_stmt->rect[i];
        /* An empty, inverted or non-finite rectangle clips nothing a user
         * meant: refused when the statement is bound, before any read (so
         * that ogrinfo and ogr2ogr fail instead of printing 0 features). */
        bool finite = true;
        for (double v : m_plan->rect)
            finite = finite && std::isfinite(v);
        if (!finite || !(m_plan->rect[0] < m_plan->rect[2] &&
                         m_plan->rect[1] < m_plan->rect[3]))
        {
            CPLError(CE_Failure, CPLE_IllegalArg,
                     "VSGPU: ST_ClipByRect(%s, %.17g, %.17g, %.17g, %.17g): "
                     "the rectangle must be finite, xmin, ymin, xmax, ymax "
                     "with xmin < xmax and ymin < ymax",
                     m_plan->input.name.c_str(), m_plan->rect[0],
                     m_plan->rect[1], m_plan->rect[2], m_plan->rect[3]);
            return BindResult::Failed;
        }
    }

    BindResult r = BindResult::Ok;
    switch (m_plan->op)
    {
        case Op::Intersection:
        case Op::Clip:
        case Op::ClipRect:
            r = BindTableFunction();
            break;
        case Op::Join:
            r = BindJoin();
            break;
        case Op::Dissolve:
            r = BindDissolve();
            break;
    }
    if (r != BindResult::Ok)
        return r;
    return BindWhere();
}

BindResult Bind(GDALDataset *ds, const char *ds_name, const char *sql,
                const vsg_statement *stmt, CSLConstList open_options,
                Plan *plan, std::string *reason)
{
    plan->sql = sql;
    plan->dataset_name = ds_name;
    Binder b(ds, ds_name, stmt, plan, reason);
    return b.Run(open_options);
}

}  // namespace vsgpu
