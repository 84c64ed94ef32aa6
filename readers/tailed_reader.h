// What a reader of a file read as it grows (FileTail) shares with the others of its kind: the
// file, its sink and its tail, what it is waiting for, its warnings, and whether it left the
// file alone. The CSV readers (csv_file_reader.h) and the log reader (log_file_reader.h).
#pragma once

#include <string>
#include <vector>

#include "readers/file_tail.h"
#include "readers/source_reader.h"

namespace runtop {

class TailedReader : public SourceReader, protected TailConsumer {
  public:
    TailedReader(SourceFile file, PointSink& sink);

    // Reads what is new, unless the file was left alone.
    Status poll() override;
    bool more() const override { return !ignored_ && tail_.more(); }
    const FileId* identity() const override { return tail_.id(); }
    void moved_to(std::string path) override;
    bool holds_what_was_read(const std::string& path) const override {
        return tail_.holds_what_was_read(path);
    }
    const SourceFile& file() const override { return file_; }
    const std::string& pending() const override { return pending_; }
    std::vector<std::string> take_warnings() override;

    // The reader left the file alone (a CSV whose header is not its own, a text file no log
    // format matched).
    bool ignored() const { return ignored_; }

  protected:
    void warn(std::string message) { warnings_.push_back(std::move(message)); }

    SourceFile file_;
    PointSink& sink_;
    FileTail tail_;
    std::string pending_;  // why the last poll left bytes unread ("" for none)
    std::vector<std::string> warnings_;
    bool ignored_ = false;
};

}  // namespace runtop
