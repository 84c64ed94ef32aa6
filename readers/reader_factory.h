// Makes the reader for a file's format; holds what readers of one set share.
#pragma once

#include <cstddef>
#include <memory>

#include "core/point_sink.h"
#include "readers/source_reader.h"

namespace runtop {

class JsonReaderShared;
class MsProbeKeyTables;

// Whether the readers of this format share state between files (the JSON readers: e.g. each
// Hugging Face run's history is delivered once): such files are read on one thread, in order.
bool reader_shares_state(SourceFormat format);

class ReaderFactory {
  public:
    // `msprobe_tables_kept`: see MsProbeKeyTables (0: every table, for as long as the factory).
    explicit ReaderFactory(std::size_t msprobe_tables_kept = 0);
    ~ReaderFactory();
    ReaderFactory(const ReaderFactory&) = delete;
    ReaderFactory& operator=(const ReaderFactory&) = delete;

    std::unique_ptr<SourceReader> make(SourceFile file, PointSink& sink);
    // What its shared reader state holds that grows with the series (msProbe's key tables).
    std::uint64_t memory_bytes() const;

  private:
    std::unique_ptr<JsonReaderShared> json_;     // e.g. each HF run's history, delivered once
    std::unique_ptr<MsProbeKeyTables> msprobe_;  // row keys shared by a rank's files
};

}  // namespace runtop
