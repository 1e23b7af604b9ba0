/*
 * ogrvsgpuhelper.cpp - one job at a time on a helper thread, its CPLError
 * messages kept and raised again on the caller's thread (ogr_vsgpu.h).
 *
 * GDAL's error handler stack is per thread: a message raised on a thread
 * of ours would reach the process-wide handler only, not the handler the
 * reading thread installed (Python's gdal.UseExceptions, a QGIS feedback,
 * a test's quiet handler). So the helper keeps them all.
 */
#include "ogr_vsgpu.h"

#include "cpl_error.h"

#include <cstring>
#include <new>
#include <system_error>

namespace vsgpu
{

HelperThread::~HelperThread()
{
    Quit();
}

void CPL_STDCALL HelperThread::Capture(CPLErr cls, CPLErrorNum no, const char *msg)
{
    auto *self = static_cast<HelperThread *>(CPLGetErrorHandlerUserData());
    if (self == nullptr)
        return;
    try
    {
        std::lock_guard<std::mutex> lock(self->m_mu);
        self->m_messages.push_back(Message{cls, no, msg ? msg : ""});
    }
    catch (const std::exception &)
    {
        /* out of memory while keeping a message: it is lost, not the
         * statement (the statement's own failure, if any, is the job's
         * result) */
    }
}

void HelperThread::Loop()
{
    CPLPushErrorHandlerEx(Capture, this);
    std::unique_lock<std::mutex> lock(m_mu);
    while (true)
    {
        m_cv.wait(lock, [this] { return m_quit || (m_job && !m_done); });
        if (m_quit)
            break;
        std::function<bool()> job = m_job;
        lock.unlock();
        bool result = false;
        CPLErrorReset();
        try
        {
            result = job();
        }
        catch (const std::bad_alloc &)
        {
            CPLError(CE_Failure, CPLE_OutOfMemory,
                     "VSGPU: out of memory on the read-ahead thread");
        }
        catch (const std::exception &e)
        {
            CPLError(CE_Failure, CPLE_AppDefined, "VSGPU: %s", e.what());
        }
        lock.lock();
        m_result = result;
        m_done = true;
        m_cv.notify_all();
    }
    lock.unlock();
    CPLPopErrorHandler();
}

bool HelperThread::Post(std::function<bool()> job)
{
    std::unique_lock<std::mutex> lock(m_mu);
    if (!m_thread.joinable())
    {
        m_quit = false;
        m_cancel = false;
        try
        {
            m_thread = std::thread(&HelperThread::Loop, this);
        }
        catch (const std::system_error &e)
        {
            CPLDebug(VSGPU_DEBUG, "no read-ahead thread (%s): one thread reads "
                     "and computes", e.what());
            return false;
        }
    }
    m_messages.clear();
    m_job = std::move(job);
    m_done = false;
    m_waiting = false;
    m_cv.notify_all();
    return true;
}

bool HelperThread::Wait()
{
    std::vector<Message> messages;
    bool result = false;
    {
        std::unique_lock<std::mutex> lock(m_mu);
        if (!m_job)
            return false;
        m_waiting = true;
        m_cv.wait(lock, [this] { return m_done; });
        messages.swap(m_messages);
        result = m_result;
        m_job = nullptr;
        m_done = false;
    }
    for (const Message &m : messages)
    {
        if (m.cls == CE_Debug)
        {
            /* CPLDebug wrote "<category>: <text>"; raise it as such again */
            const char *sep = std::strstr(m.text.c_str(), ": ");
            const std::string category =
                sep ? m.text.substr(0, static_cast<size_t>(sep - m.text.c_str()))
                    : std::string(VSGPU_DEBUG);
            CPLDebug(category.c_str(), "%s", sep ? sep + 2 : m.text.c_str());
        }
        else
            CPLError(m.cls, m.no, "%s", m.text.c_str());
    }
    return result;
}

void HelperThread::Quit()
{
    {
        std::unique_lock<std::mutex> lock(m_mu);
        if (!m_thread.joinable())
            return;
        m_cancel = true;
        m_cv.wait(lock, [this] { return !m_job || m_done; });
        m_quit = true;
        m_job = nullptr;
        m_messages.clear();
        m_cv.notify_all();
    }
    m_thread.join();
    m_cancel = false;
}

}  // namespace vsgpu
