// opencsd_snapshot.cpp - the .ini files and binaries of an OpenCSD snapshot; a wrapped buffer in
// time order.
#include "pmtrace/platform/trace/opencsd_snapshot.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <system_error>

namespace pmtrace::platform
{

namespace
{

namespace fs = std::filesystem;

std::string hex(uint64_t v, int digits = 0)
{
    std::ostringstream s;
    s << "0x" << std::hex;
    if (digits > 0) {
        s.width(digits);
        s.fill('0');
    }
    s << v;
    return s.str();
}

std::string image_file(size_t n)
{
    return "memory_" + std::to_string(n) + ".bin";
}

bool write_file(const fs::path &path, const void *data, size_t size, const trace_log &log)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (f && size > 0)
        f.write(static_cast<const char *>(data), static_cast<std::streamsize>(size));
    f.close();
    if (!f) {
        log_line(log, "opencsd_snapshot: cannot write " + path.string());
        return false;
    }
    return true;
}

bool write_text(const fs::path &path, const std::string &text, const trace_log &log)
{
    return write_file(path, text.data(), text.size(), log);
}

// The images must be non-empty, inside the 64-bit address space and apart: OpenCSD refuses a
// memory accessor that overlaps another.
bool images_ok(const std::vector<memory_image> &images, const trace_log &log)
{
    std::vector<std::pair<uint64_t, uint64_t>> spans; // [first, last]
    for (const memory_image &m : images) {
        if (m.bytes.empty() ||
            m.bytes.size() - 1 > std::numeric_limits<uint64_t>::max() - m.address) {
            log_line(log, "opencsd_snapshot: memory image at " + hex(m.address) + " of " +
                              std::to_string(m.bytes.size()) +
                              " bytes is empty or runs past the end of the address space");
            return false;
        }
        spans.emplace_back(m.address, m.address + (m.bytes.size() - 1));
    }
    std::sort(spans.begin(), spans.end());
    for (size_t i = 1; i < spans.size(); i++)
        if (spans[i].first <= spans[i - 1].second) {
            log_line(log, "opencsd_snapshot: memory images at " + hex(spans[i - 1].first) +
                              " and " + hex(spans[i].first) + " overlap");
            return false;
        }
    return true;
}

std::string snapshot_ini(const trace_capture &c)
{
    std::ostringstream s;
    s << "[snapshot]\n"
      << "version=1.0\n"
      << "description=" << c.description << "\n\n"
      << "[device_list]\n"
      << "device0=" << snapshot_names::core_ini << "\n"
      << "device1=" << snapshot_names::trace_unit_ini << "\n\n"
      << "[trace]\n"
      << "metadata=" << snapshot_names::trace_ini << "\n";
    return s.str();
}

std::string core_ini(const trace_capture &c)
{
    std::ostringstream s;
    s << "[device]\n"
      << "name=" << snapshot_names::core << "\n"
      << "class=core\n"
      << "type=" << snapshot_names::core_type << "\n";
    for (size_t i = 0; i < c.images.size(); i++)
        s << "\n[dump" << i + 1 << "]\n"
          << "file=" << image_file(i) << "\n"
          << "address=" << hex(c.images[i].address, 16) << "\n"
          << "length=" << hex(c.images[i].bytes.size()) << "\n";
    return s.str();
}

std::string trace_unit_ini(const trace_capture &c)
{
    const ete_registers &r = c.registers;
    std::ostringstream s;
    s << "[device]\n"
      << "name=" << snapshot_names::trace_unit << "\n"
      << "class=trace_source\n"
      << "type=ETE\n\n"
      << "[regs]\n"
      << "TRCCONFIGR=" << hex(r.trcconfigr, 8) << "\n"
      << "TRCTRACEIDR=" << hex(r.trctraceidr, 8) << "\n"
      << "TRCDEVARCH=" << hex(r.trcdevarch, 8) << "\n"
      << "TRCIDR0=" << hex(r.trcidr0, 8) << "\n"
      << "TRCIDR1=" << hex(r.trcidr1, 8) << "\n"
      << "TRCIDR2=" << hex(r.trcidr2, 8) << "\n"
      << "TRCIDR8=" << hex(r.trcidr8, 8) << "\n";
    return s.str();
}

std::string trace_ini()
{
    std::ostringstream s;
    s << "[trace_buffers]\n"
      << "buffers=buffer0\n\n"
      << "[buffer0]\n"
      << "name=" << snapshot_names::buffer << "\n"
      << "file=" << snapshot_names::trace_file << "\n"
      << "format=source_data\n\n"
      << "[source_buffers]\n"
      << snapshot_names::trace_unit << "=" << snapshot_names::buffer << "\n\n"
      << "[core_trace_sources]\n"
      << snapshot_names::core << "=" << snapshot_names::trace_unit << "\n";
    return s.str();
}

} // namespace

snapshot_status write_opencsd_snapshot(const std::string &dir, const trace_capture &capture,
                                       const trace_log &log)
{
    if (dir.empty()) {
        log_line(log, "opencsd_snapshot: no directory given");
        return snapshot_status::bad_input;
    }
    if (!capture.registers.is_ete()) {
        // The trace unit file says type=ETE: its registers must say so too.
        log_line(log, "opencsd_snapshot: TRCDEVARCH " + hex(capture.registers.trcdevarch) +
                          " does not name an ETE");
        return snapshot_status::bad_input;
    }
    if (!images_ok(capture.images, log))
        return snapshot_status::bad_input;
    if (capture.description.find_first_of("\r\n;#") != std::string::npos) {
        // The ini reader ends a line at these; a description must stay one value.
        log_line(log, "opencsd_snapshot: the description holds a line break, ';' or '#'");
        return snapshot_status::bad_input;
    }
    const fs::path root(dir);
    std::error_code ec;
    fs::create_directories(root, ec);
    if (ec || !fs::is_directory(root, ec)) {
        log_line(log, "opencsd_snapshot: cannot create directory " + dir);
        return snapshot_status::io_error;
    }
    bool ok = write_text(root / snapshot_names::snapshot_ini, snapshot_ini(capture), log) &&
              write_text(root / snapshot_names::core_ini, core_ini(capture), log) &&
              write_text(root / snapshot_names::trace_unit_ini, trace_unit_ini(capture), log) &&
              write_text(root / snapshot_names::trace_ini, trace_ini(), log) &&
              write_file(root / snapshot_names::trace_file, capture.trace.data(),
                         capture.trace.size(), log);
    for (size_t i = 0; ok && i < capture.images.size(); i++)
        ok = write_file(root / image_file(i), capture.images[i].bytes.data(),
                        capture.images[i].bytes.size(), log);
    return ok ? snapshot_status::ok : snapshot_status::io_error;
}

snapshot_status trace_buffer_in_time_order(const std::vector<uint8_t> &buffer,
                                           uint64_t write_offset, bool wrapped,
                                           std::vector<uint8_t> &out, const trace_log &log)
{
    if (write_offset > buffer.size()) {
        log_line(log, "opencsd_snapshot: write offset " + std::to_string(write_offset) +
                          " is past the end of a " + std::to_string(buffer.size()) +
                          "-byte buffer");
        return snapshot_status::bad_input;
    }
    const auto split = buffer.begin() + static_cast<std::ptrdiff_t>(write_offset);
    if (wrapped)
        out.insert(out.end(), split, buffer.end());
    out.insert(out.end(), buffer.begin(), split);
    return snapshot_status::ok;
}

} // namespace pmtrace::platform
