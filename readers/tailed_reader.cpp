#include "readers/tailed_reader.h"

namespace runtop {

TailedReader::TailedReader(SourceFile file, PointSink& sink)
    : file_(std::move(file)), sink_(sink), tail_(file_.path) {}

Status TailedReader::poll() {
    if (ignored_) return ok_status();
    pending_.clear();
    Status status = tail_.poll(*this);
    if (status && tail_.removed()) pending_ = "file was removed";
    return status;
}

void TailedReader::moved_to(std::string path) {
    tail_.moved_to(path);
    file_.path = std::move(path);
}

std::vector<std::string> TailedReader::take_warnings() {
    std::vector<std::string> out;
    out.swap(warnings_);
    return out;
}

}  // namespace runtop
