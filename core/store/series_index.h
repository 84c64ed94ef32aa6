// Every series' key, interned: each run and tag name is stored once (a job's thousands of tags
// are shared by its hundreds of ranks), and a series is 12 bytes of ids plus its slot in an
// open-addressing table, about 24 bytes a series where a SeriesKey with its strings and a
// hash-set node took over 100. Ids are dense, in first-seen order.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/series_key.h"

namespace runtop {

// Names stored once each, numbered in first-seen order.
class InternedNames {
  public:
    std::uint32_t intern(std::string_view name);
    std::string_view name(std::uint32_t id) const { return names_[id]; }
    std::size_t size() const { return names_.size(); }
    std::uint64_t bytes() const;

  private:
    std::string_view store(std::string_view name);
    void grow();

    std::vector<std::unique_ptr<char[]>> blocks_;  // the characters; never move
    std::size_t block_used_ = 0;
    std::size_t block_size_ = 0;
    std::uint64_t text_bytes_ = 0;
    std::vector<std::string_view> names_;
    std::vector<std::uint32_t> slots_;  // open addressing: 0 empty, else id + 1
    std::uint32_t last_ = UINT32_MAX;   // readers ask for the same name many times in a row
};

class SeriesIndex {
  public:
    struct Found {
        SeriesId id;
        bool inserted;
    };
    // The key's id, numbering it next if it is new.
    Found insert(SeriesKeyRef key);
    SeriesKeyRef key(SeriesId id) const {
        const Packed& k = keys_[id];
        return {runs_.name(k.run), k.rank, tags_.name(k.tag)};
    }
    std::size_t size() const { return keys_.size(); }
    // Every byte it holds, capacity included.
    std::uint64_t bytes() const;

  private:
    struct Packed {
        std::uint32_t run;
        std::int32_t rank;
        std::uint32_t tag;
        bool operator==(const Packed&) const = default;
    };
    static std::uint64_t hash(const Packed& k);
    void grow();

    InternedNames runs_;
    InternedNames tags_;
    std::vector<Packed> keys_;
    std::vector<std::uint32_t> slots_;  // open addressing: 0 empty, else id + 1
};

}  // namespace runtop
