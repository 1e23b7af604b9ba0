/*
 * ogrvsgpuprogress.cpp - a result layer's progress, as a GDALProgressFunc
 * sees it (vsgpu::Progress), and the result layer's side of it: the
 * callback set by SetProgress or, under PROGRESS=YES, GDALTermProgress.
 *
 * Progress is driven by work done, never by time or by guesses: the layers
 * report fractions of a count they know (input features, groups, rows); an
 * unknown count reports nothing until the end.
 */
#include "ogr_vsgpu.h"

#include "cpl_error.h"

#include <algorithm>

namespace vsgpu
{

namespace
{
/* A report is made when the fraction moved by this much: the callback
 * then costs nothing next to the work, whatever the number of features. */
constexpr double kStep = 0.01;
/* Update() stays below this: only End() says 1.0. */
constexpr double kBeforeEnd = 0.999;
}  // namespace

bool Progress::Call(double fraction)
{
    m_last = fraction;
    if (m_fn(fraction, nullptr, m_data))
        return true;
    m_fn = nullptr; /* asked once: no more calls on this stream */
    CPLError(CE_Failure, CPLE_UserInterrupt,
             "VSGPU: interrupted by the progress callback");
    return false;
}

bool Progress::Start(GDALProgressFunc fn, void *data)
{
    m_fn = fn;
    m_data = data;
    m_last = 0;
    m_ended = false;
    return m_fn == nullptr || Call(0.0);
}

void Progress::SetCallback(GDALProgressFunc fn, void *data)
{
    m_fn = m_ended ? nullptr : fn;
    m_data = data;
}

bool Progress::Update(double fraction)
{
    if (m_fn == nullptr)
        return true;
    fraction = std::min(fraction, kBeforeEnd);
    if (!(fraction >= m_last + kStep))
        return true; /* not a step further (or NaN) */
    return Call(fraction);
}

bool Progress::End()
{
    if (m_fn == nullptr || m_ended)
        return true;
    m_ended = true;
    const bool go_on = Call(1.0);
    m_fn = nullptr;
    return go_on;
}

double PhaseFraction(double lo, double hi, GIntBig done, GIntBig total)
{
    if (total <= 0 || done <= 0)
        return lo;
    if (done >= total)
        return hi;
    return lo + (hi - lo) * static_cast<double>(done) /
                    static_cast<double>(total);
}

}  // namespace vsgpu

void OGRVSGPUResultLayer::SetProgress(GDALProgressFunc fn, void *data)
{
    m_progress_set = true;
    m_progress_fn = fn;
    m_progress_data = data;
    if (m_started && !m_eof && !m_failed)
        m_progress.SetCallback(fn, data);
}

/* SetProgress wins over the option, even with nullptr: a program that
 * passes its own callback (or none) decides what its user sees. */
GDALProgressFunc OGRVSGPUResultLayer::ProgressFunc(void **data) const
{
    if (m_progress_set)
    {
        *data = m_progress_data;
        return m_progress_fn;
    }
    *data = nullptr;
    return m_plan->opts.progress ? GDALTermProgress : nullptr;
}

bool OGRVSGPUResultLayer::ReportProgress(double fraction)
{
    if (m_progress.Update(fraction))
        return true;
    m_failed = true;
    return false;
}

/* Taken once per stream, after the input's filters are set, so that it
 * counts what the stream reads. GetFeatureCount(TRUE) is a lookup for
 * GeoPackage and shapefile; a source that cannot count gives -1, and
 * then the progress says nothing until the end rather than guess. */
GIntBig OGRVSGPUResultLayer::CountInputForProgress()
{
    if (!m_progress.Active())
        return -1;
    OGRLayer *input = m_plan->input.layer;
    const GIntBig n = input->GetFeatureCount(TRUE);
    input->ResetReading();
    CPLDebug(VSGPU_DEBUG, "%s: progress over " CPL_FRMT_GIB " input features",
             vsgpu::OpName(m_plan->op), n);
    return n;
}
