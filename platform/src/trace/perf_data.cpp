// perf_data.cpp - a perf.data file of PMU samples (perf_data.h), laid out as Linux's
// tools/perf/Documentation/perf.data-file-format.txt says: the file header, the attribute
// section, the data section (records), then the feature sections the header's bitmap announces.
#include <pmtrace/platform/trace/perf_data.h>

#include <elf.h>
#include <linux/perf_event.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace pmtrace::platform
{

namespace
{

// The feature bits of perf's header (tools/perf/util/header.h): the ones written here.
constexpr unsigned feature_arch = 6, feature_nrcpus = 7, feature_event_desc = 12;
constexpr uint64_t magic = 0x32454c4946524550ull; // "PERFILE2", little-endian
// The process that stands for the image, and its threads: one per Exception level.
constexpr uint32_t image_pid = 1, el_tid_base = 100;

struct file_section {
    uint64_t offset, size;
};

struct file_header {
    uint64_t magic, size, attr_size;
    file_section attrs, data, event_types;
    uint64_t features[4]; // a 256-bit bitmap
};
static_assert(sizeof(file_header) == 104, "perf_file_header is 104 bytes");

class buffer
{
  public:
    template <class T> void put(const T &v)
    {
        const auto *p = reinterpret_cast<const uint8_t *>(&v);
        bytes_.insert(bytes_.end(), p, p + sizeof v);
    }
    // A string, zero-terminated and padded with zeros to a multiple of `align` bytes.
    void put_string(const std::string &s, size_t align)
    {
        const size_t n = (s.size() + 1 + align - 1) / align * align;
        bytes_.insert(bytes_.end(), s.begin(), s.end());
        bytes_.insert(bytes_.end(), n - s.size(), 0);
    }
    // perf's header string: u32 length (a multiple of 64), then the padded string.
    void put_header_string(const std::string &s)
    {
        put(static_cast<uint32_t>((s.size() + 1 + 63) / 64 * 64));
        put_string(s, 64);
    }
    size_t size() const { return bytes_.size(); }
    const std::vector<uint8_t> &bytes() const { return bytes_; }
    void append(const buffer &b) { bytes_.insert(bytes_.end(), b.bytes_.begin(), b.bytes_.end()); }
    // Sets a record's size in its header (u16 at offset 6 of the record starting at `at`).
    void finish_record(size_t at)
    {
        const auto n = static_cast<uint16_t>(bytes_.size() - at);
        std::memcpy(&bytes_[at + 6], &n, sizeof n);
    }

  private:
    std::vector<uint8_t> bytes_;
};

void record_header(buffer &b, uint32_t type, uint16_t misc)
{
    perf_event_header h{};
    h.type = type;
    h.misc = misc;
    b.put(h);
}

void comm(buffer &b, uint32_t pid, uint32_t tid, const std::string &name)
{
    const size_t at = b.size();
    record_header(b, PERF_RECORD_COMM, 0);
    b.put(pid);
    b.put(tid);
    b.put_string(name.substr(0, 15), 8); // perf keeps TASK_COMM_LEN (16) bytes
    b.finish_record(at);
}

void mmap(buffer &b, const perf_mapping &m)
{
    const size_t at = b.size();
    record_header(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
    b.put(image_pid);
    b.put(image_pid);
    b.put(m.address);
    b.put(m.size);
    b.put(m.file_offset);
    b.put_string(m.path, 8);
    b.finish_record(at);
}

perf_event_attr event_attr(const perf_data_config &c)
{
    perf_event_attr a{};
    a.type = PERF_TYPE_RAW;
    a.size = sizeof a;
    a.config = c.event;
    a.sample_period = c.sample_period;
    a.sample_type =
        PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
    return a;
}

} // namespace

bool write_perf_data(const std::string &path, const perf_data_config &config,
                     const std::vector<perf_sample> &samples, std::string &error)
{
    const perf_event_attr attr = event_attr(config);

    // The data: the process and its threads, the image's mappings, the samples.
    buffer data;
    comm(data, image_pid, image_pid,
         config.mappings.empty()
             ? config.command
             : std::filesystem::path(config.mappings[0].path).filename().string());
    for (const perf_mapping &m : config.mappings)
        mmap(data, m);
    bool named[4] = {};
    for (const perf_sample &s : samples) {
        const unsigned el = s.el & 3;
        if (!named[el])
            comm(data, image_pid, el_tid_base + el, "EL" + std::to_string(el));
        named[el] = true;
        const size_t at = data.size();
        record_header(data, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
        data.put(s.ip);                                    // PERF_SAMPLE_IP
        data.put(image_pid);                               // PERF_SAMPLE_TID: pid,
        data.put(static_cast<uint32_t>(el_tid_base + el)); //   tid
        data.put(s.time_ns);                               // PERF_SAMPLE_TIME
        data.put(uint64_t{0});                             // PERF_SAMPLE_CPU: cpu 0, res
        data.put(s.period);                                // PERF_SAMPLE_PERIOD
        data.finish_record(at);
    }

    // The attribute section: the one event, with no sample IDs.
    buffer attrs;
    attrs.put(attr);
    attrs.put(file_section{0, 0});

    // The features, in bit order: their section table, then their contents.
    buffer arch, nrcpus, desc;
    arch.put_header_string("aarch64");
    nrcpus.put(uint32_t{1}); // available
    nrcpus.put(uint32_t{1}); // online
    desc.put(uint32_t{1});   // events
    desc.put(static_cast<uint32_t>(sizeof attr));
    desc.put(attr);
    desc.put(uint32_t{0}); // ids
    char raw[16];
    std::snprintf(raw, sizeof raw, "r%04x", static_cast<unsigned>(config.event));
    desc.put_header_string(config.event_name.empty() ? raw : config.event_name);

    file_header h{};
    h.magic = magic;
    h.size = sizeof h;
    h.attr_size = sizeof(perf_event_attr) + sizeof(file_section);
    h.attrs = {sizeof h, attrs.size()};
    h.data = {h.attrs.offset + h.attrs.size, data.size()};
    h.event_types = {0, 0};
    for (unsigned bit : {feature_arch, feature_nrcpus, feature_event_desc})
        h.features[bit / 64] |= uint64_t{1} << (bit % 64);

    const buffer *features[] = {&arch, &nrcpus, &desc};
    buffer table;
    uint64_t offset = h.data.offset + h.data.size + 3 * sizeof(file_section);
    for (const buffer *f : features) {
        table.put(file_section{offset, f->size()});
        offset += f->size();
    }

    buffer file;
    file.put(h);
    file.append(attrs);
    file.append(data);
    file.append(table);
    for (const buffer *f : features)
        file.append(*f);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(file.bytes().data()),
              static_cast<std::streamsize>(file.size()));
    if (!out) {
        error = "cannot write " + path;
        return false;
    }
    return true;
}

std::vector<perf_mapping> elf_executable_mappings(const std::string &path,
                                                  const std::vector<uint8_t> &bytes)
{
    std::vector<perf_mapping> maps;
    Elf64_Ehdr eh{};
    if (bytes.size() < sizeof eh)
        return maps;
    std::memcpy(&eh, bytes.data(), sizeof eh);
    if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_phentsize != sizeof(Elf64_Phdr))
        return maps;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        const uint64_t at = eh.e_phoff + uint64_t{i} * sizeof(Elf64_Phdr);
        if (at > bytes.size() || bytes.size() - at < sizeof(Elf64_Phdr))
            break;
        Elf64_Phdr ph{};
        std::memcpy(&ph, bytes.data() + at, sizeof ph);
        if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && ph.p_memsz)
            maps.push_back({path, ph.p_vaddr, ph.p_memsz, ph.p_offset});
    }
    return maps;
}

} // namespace pmtrace::platform
