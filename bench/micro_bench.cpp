// Micro benchmarks of the ingest hot path (DESIGN.md §7): CRC-32C, the TFRecord framing walk,
// the Event decoder, and EventFileReader::poll end to end on a generated file; for CSVs the
// tokenizer, number parsing, and MsProbeCsvReader::poll on a generated msProbe monitor file.
#include <benchmark/benchmark.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/point_sink.h"
#include "readers/crc32c.h"
#include "readers/csv_tokenizer.h"
#include "readers/event_decoder.h"
#include "readers/event_file_reader.h"
#include "readers/msprobe_csv_reader.h"
#include "readers/number_text.h"
#include "writers/event_writer.h"
#include "writers/msprobe_writer.h"
#include "writers/tfrecord_writer.h"

namespace {

using namespace runtop;

std::string random_bytes(std::size_t n) {
    std::mt19937_64 rng(42);
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    return s;
}

std::string tag_for(int i) {
    return "model.layers." + std::to_string(i % 10) + ".mlp.fc" + std::to_string(i % 4) +
           ".weight/rank0/pre_grad_norm_" + std::to_string(i);
}

// --- CRC-32C -------------------------------------------------------------------------------

void BM_Crc32cHardware(benchmark::State& state) {
    std::string data = random_bytes(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(crc32c(data.data(), data.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
    state.SetLabel(crc32c_is_hardware() ? "sse4.2" : "no sse4.2: portable");
}
BENCHMARK(BM_Crc32cHardware)->Arg(100)->Arg(64 << 10);

void BM_Crc32cPortable(benchmark::State& state) {
    std::string data = random_bytes(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(crc32c_portable(data.data(), data.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Crc32cPortable)->Arg(100)->Arg(64 << 10);

// --- framing + both CRCs over an in-memory buffer of ~10k records ---------------------------

std::string framed_records(int count, std::uint64_t* records) {
    std::string buf;
    buf += frame_record(events::file_version(1.7e9));
    for (int i = 1; i < count; ++i)
        buf += frame_record(events::simple_scalar(tag_for(i % 160), 0.5f + static_cast<float>(i),
                                                  i / 160, 1.7e9 + i));
    *records = static_cast<std::uint64_t>(count);
    return buf;
}

void BM_FramingWalk(benchmark::State& state) {
    std::uint64_t records = 0;
    const std::string buf = framed_records(10000, &records);
    for (auto _ : state) {
        const char* p = buf.data();
        const char* end = p + buf.size();
        std::uint64_t ok = 0;
        while (end - p >= 16) {
            std::uint64_t n;
            std::uint32_t len_crc, data_crc;
            std::memcpy(&n, p, 8);
            std::memcpy(&len_crc, p + 8, 4);
            if (masked_crc32c(p, 8) != len_crc || n > static_cast<std::uint64_t>(end - p) - 16)
                break;
            std::memcpy(&data_crc, p + 12 + n, 4);
            ok += masked_crc32c(p + 12, n) == data_crc;
            p += 16 + n;
        }
        if (ok != records) state.SkipWithError("framing walk lost records");
        benchmark::DoNotOptimize(ok);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * buf.size()));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * records));
}
BENCHMARK(BM_FramingWalk);

// --- EventDecoder::decode ---------------------------------------------------------------------

class CountingHandler final : public EventHandler {
  public:
    void on_scalar(std::string_view tag, std::int64_t step, double, double value) override {
        sum += value + static_cast<double>(step) + static_cast<double>(tag.size());
        ++scalars;
    }
    void on_text(std::string_view, std::int64_t, double, std::string) override {}
    void on_session_start(std::int64_t, double) override {}
    double sum = 0;
    std::uint64_t scalars = 0;
};

void decode_loop(benchmark::State& state, const std::string& payload) {
    EventDecoder decoder;
    CountingHandler handler;
    for (auto _ : state) {
        bool ok = decoder.decode(payload, handler);
        benchmark::DoNotOptimize(ok);
    }
    if (handler.scalars != static_cast<std::uint64_t>(state.iterations()))
        state.SkipWithError("decoder did not report one scalar per event");
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * payload.size()));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void BM_DecodeSimpleValue(benchmark::State& state) {
    decode_loop(state, events::simple_scalar("model.layers.7.mlp.fc1.weight/rank0/pre_grad_norm",
                                             2.3351929f, 5600, 1.7e9));
}
BENCHMARK(BM_DecodeSimpleValue);

void BM_DecodeTensorContent(benchmark::State& state) {
    // TF2 tf.summary.scalar: DT_FLOAT tensor_content, metadata (plugin "scalars") every time.
    decode_loop(state, events::tensor_scalar("epoch_accuracy", events::DType::kFloat, 0.99,
                                             events::Encoding::kTensorContent, 77, 1.7e9));
}
BENCHMARK(BM_DecodeTensorContent);

// --- EventFileReader::poll on a generated file ------------------------------------------------

class CountingSink final : public PointSink {
  public:
    SeriesId series(const SeriesKey&, SourceId) override { return next_id++; }
    void append(SeriesId id, const Point& p) override {
        ++points;
        checksum += id + static_cast<std::uint64_t>(p.step);
    }
    void session_start(std::string_view, int, std::int64_t, double) override {}
    void config_text(ConfigText) override {}
    void anomaly(ImportedAnomaly) override {}
    SeriesId next_id = 0;
    std::uint64_t points = 0;
    std::uint64_t checksum = 0;
};

struct GeneratedFile {
    std::string path;
    std::uint64_t bytes = 0;
    std::uint64_t records = 0;

    GeneratedFile() {
        char tmpl[] = "/tmp/runtop_microbench_XXXXXX";
        int fd = ::mkstemp(tmpl);
        if (fd < 0) std::abort();
        ::close(fd);
        path = tmpl;
        std::remove(path.c_str());
        auto file = RecordFile::open(path);
        if (!file) std::abort();
        file->add(events::file_version(1.7e9));
        ++records;
        std::vector<std::string> tags;
        for (int i = 0; i < 160; ++i) tags.push_back(tag_for(i));
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> value(0.0f, 4.0f);
        for (int step = 0; step < 250; ++step) {  // 250 * 160 records * ~100 B = ~4 MB
            for (const std::string& tag : tags) {
                file->add(events::simple_scalar(tag, value(rng), step, 1.7e9 + step));
                ++records;
            }
            if (!file->flush()) std::abort();
        }
        struct stat st;
        if (::stat(path.c_str(), &st) != 0) std::abort();
        bytes = static_cast<std::uint64_t>(st.st_size);
    }
    ~GeneratedFile() { std::remove(path.c_str()); }
};

void BM_ReaderPoll(benchmark::State& state) {
    static GeneratedFile file;
    std::uint64_t points = 0;
    for (auto _ : state) {
        CountingSink sink;
        EventFileReader reader(SourceFile{file.path, "bench", 0}, sink);
        Status status = reader.poll();
        while (status && reader.more()) status = reader.poll();
        if (!status || reader.stats().records != file.records) {
            state.SkipWithError("reader did not read every record");
            break;
        }
        points += sink.points;
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.bytes));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * file.records));
    state.counters["points"] =
        benchmark::Counter(static_cast<double>(points), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_ReaderPoll)->Unit(benchmark::kMillisecond);

// --- msProbe monitor CSVs -----------------------------------------------------------------------

// One msProbe row's statistics: min, max, mean, norm, zeros, nans of a tensor of scale `s`.
std::vector<double> msprobe_stats(std::mt19937_64& rng, double s) {
    std::normal_distribution<double> n(0.0, 1.0);
    return {-s * (3.5 + std::abs(n(rng))),
            s * (3.5 + std::abs(n(rng))),
            s * 0.01 * n(rng),
            s * 2500 * (1 + 0.05 * n(rng)),
            0.0,
            0.0};
}

const char* const kShapes[] = {"[4096]", "[1536, 4096]", "[4096, 512]", "[2752, 4096]"};

std::string msprobe_param_name(int i) {
    static const char* const kParams[] = {
        "input_layernorm.weight", "self_attention.query_key_value.weight",
        "self_attention.dense.weight", "mlp.dense_h_to_4h.weight"};
    return "language_model.encoder.layers." + std::to_string(i / 4) + "." + kParams[i % 4];
}

// About `bytes` of msProbe grad_reduced rows (32 parameters a step) as MonitorCsvWriter writes
// them, header first.
std::string msprobe_rows(std::size_t bytes, std::uint64_t* rows) {
    std::mt19937_64 rng(11);
    std::string buf = "vpp_stage,name,step,min,max,mean,norm,zeros,nans,shape,dtype\n";
    *rows = 0;
    for (int step = 0; buf.size() < bytes; ++step)
        for (int i = 0; i < 32; ++i) {
            buf += "0," + msprobe_param_name(i) + "," + std::to_string(step);
            for (double v : msprobe_stats(rng, i % 4 ? 2.5e-5 * 0.02 : 2.5e-5)) {
                buf += ',';
                msprobe::append_python_float(buf, v);
            }
            const std::string shape = kShapes[i % 4];
            buf += shape.find(',') != std::string::npos ? ",\"" + shape + "\"" : "," + shape;
            buf += ",torch.float32\n";
            ++*rows;
        }
    return buf;
}

void BM_CsvTokenizerSplit(benchmark::State& state) {
    std::uint64_t rows = 0;
    const std::string buf = msprobe_rows(1 << 20, &rows);
    CsvTokenizer tokenizer;
    for (auto _ : state) {
        std::uint64_t records = 0, fields = 0;
        std::size_t used = tokenizer.split(buf.data(), buf.size(),
                                           [&](std::span<const std::string_view> f, std::size_t) {
                                               ++records;
                                               fields += f.size();
                                           });
        if (used != buf.size() || records != rows + 1 || fields != records * 11) {
            state.SkipWithError("tokenizer lost records or fields");
            break;
        }
        benchmark::DoNotOptimize(fields);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * buf.size()));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * (rows + 1)));
}
BENCHMARK(BM_CsvTokenizerSplit);

void BM_ParseValue(benchmark::State& state) {
    // Cells as round(6) then repr() prints them, in proportions like the bench data.
    const std::vector<std::string_view> cells = {"-0.001234", "0.002417",  "-2e-06", "0.0",
                                                 "1.253021",  "-4.873516", "5e-05",  "0.45123",
                                                 "123.4567",  "16.908311", "-0.0",   "3.7e-05",
                                                 "0.0",       "1e-06",     "nan",    "0.031873"};
    std::size_t bytes = 0;
    for (std::string_view c : cells) bytes += c.size();
    for (auto _ : state) {
        double sum = 0;
        for (std::string_view c : cells) {
            double v;
            if (!parse_value(c, v)) state.SkipWithError("parse_value failed");
            sum += v;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * cells.size()));
}
BENCHMARK(BM_ParseValue);

void BM_ParseStep(benchmark::State& state) {
    const std::vector<std::string_view> cells = {"0", "7", "42", "1234", "56789", "120000"};
    for (auto _ : state) {
        std::int64_t sum = 0;
        for (std::string_view c : cells) {
            std::int64_t v;
            if (!parse_step(c, v)) state.SkipWithError("parse_step failed");
            sum += v;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * cells.size()));
}
BENCHMARK(BM_ParseStep);

struct GeneratedCsv {
    std::string dir;
    std::string path;
    std::uint64_t bytes = 0;
    std::uint64_t rows = 0;

    GeneratedCsv() {
        char tmpl[] = "/tmp/runtop_microbench_csv_XXXXXX";
        if (!::mkdtemp(tmpl)) std::abort();
        dir = tmpl;
        path = dir + "/grad_reduced_0-999.csv";  // an msProbe name: the reader wants its prefix
        std::FILE* f = std::fopen(path.c_str(), "w");
        if (!f) std::abort();
        const std::string text = msprobe_rows(4 << 20, &rows);  // ~4 MB, ~30k rows
        if (std::fwrite(text.data(), 1, text.size(), f) != text.size()) std::abort();
        if (std::fclose(f) != 0) std::abort();
        bytes = text.size();
    }
    ~GeneratedCsv() {
        std::remove(path.c_str());
        ::rmdir(dir.c_str());
    }
};

void BM_MsProbeReaderPoll(benchmark::State& state) {
    static GeneratedCsv file;
    std::uint64_t points = 0;
    for (auto _ : state) {
        CountingSink sink;
        MsProbeCsvReader reader(SourceFile{file.path, "bench", 0, SourceFormat::kMsProbeCsv}, sink);
        Status status = reader.poll();
        while (status && reader.more()) status = reader.poll();
        if (!status || reader.rows() != file.rows || reader.bad_rows() != 0) {
            state.SkipWithError("reader did not read every row");
            break;
        }
        points += sink.points;
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.bytes));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * file.rows));
    state.counters["points"] =
        benchmark::Counter(static_cast<double>(points), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_MsProbeReaderPoll)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
