#include "core/store/series_index.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <utility>

namespace runtop {
namespace {

constexpr std::size_t kMinSlots = 64;
constexpr std::size_t kMinBlock = 256;

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Both tables are open addressing over ids: a slot holds id + 1 (0: empty), probed linearly
// from the hash in a power-of-two table kept at most half full.

// The id whose entry `matches`, or else `next_id`, placed in the empty slot the probe reached
// (the caller then stores its entry); the bool says which.
template <class Matches>
std::pair<std::uint32_t, bool> find_or_place(std::vector<std::uint32_t>& slots, std::uint64_t hash,
                                             std::uint32_t next_id, Matches matches) {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const std::uint32_t slot = slots[i];
        if (slot == 0) {
            slots[i] = next_id + 1;
            return {next_id, true};
        }
        if (matches(slot - 1)) return {slot - 1, false};
    }
}

// Twice the slots (at least kMinSlots), every id placed again by `hash_of`.
template <class HashOf>
void grow_slots(std::vector<std::uint32_t>& slots, std::size_t ids, HashOf hash_of) {
    std::vector<std::uint32_t> grown(std::max(kMinSlots, slots.size() * 2), 0);
    const std::size_t mask = grown.size() - 1;
    for (std::uint32_t id = 0; id < ids; ++id) {
        std::size_t i = hash_of(id) & mask;
        while (grown[i] != 0) i = (i + 1) & mask;
        grown[i] = id + 1;
    }
    slots = std::move(grown);
}

}  // namespace

std::uint32_t InternedNames::intern(std::string_view name) {
    if (last_ != UINT32_MAX && names_[last_] == name) return last_;
    if ((names_.size() + 1) * 2 > slots_.size()) grow();
    const auto [id, placed] = find_or_place(slots_, std::hash<std::string_view>{}(name),
                                            static_cast<std::uint32_t>(names_.size()),
                                            [&](std::uint32_t id) { return names_[id] == name; });
    if (placed) names_.push_back(store(name));
    return last_ = id;
}

std::string_view InternedNames::store(std::string_view name) {
    if (name.empty()) return {};
    if (block_used_ + name.size() > block_size_) {
        // Blocks double up to 1 MiB: few names cost little, many cost few allocations.
        block_size_ = std::max(
            name.size(), std::min<std::size_t>(std::max(kMinBlock, block_size_ * 2), 1 << 20));
        blocks_.push_back(std::make_unique<char[]>(block_size_));
        block_used_ = 0;
        text_bytes_ += block_size_;
    }
    char* at = blocks_.back().get() + block_used_;
    std::memcpy(at, name.data(), name.size());
    block_used_ += name.size();
    return {at, name.size()};
}

void InternedNames::grow() {
    grow_slots(slots_, names_.size(),
               [this](std::uint32_t id) { return std::hash<std::string_view>{}(names_[id]); });
}

std::uint64_t InternedNames::bytes() const {
    return text_bytes_ + blocks_.capacity() * sizeof(blocks_[0]) +
           names_.capacity() * sizeof(std::string_view) + slots_.capacity() * sizeof(std::uint32_t);
}

std::uint64_t SeriesIndex::hash(const Packed& k) {
    return mix((std::uint64_t{k.run} << 32 | static_cast<std::uint32_t>(k.rank)) ^
               mix(std::uint64_t{k.tag} + 0x9e3779b97f4a7c15ULL));
}

SeriesIndex::Found SeriesIndex::insert(SeriesKeyRef key) {
    const Packed k{runs_.intern(key.run), key.rank, tags_.intern(key.tag)};
    if ((keys_.size() + 1) * 2 > slots_.size()) grow();
    const auto [id, placed] = find_or_place(slots_, hash(k), static_cast<SeriesId>(keys_.size()),
                                            [&](std::uint32_t id) { return keys_[id] == k; });
    if (placed) keys_.push_back(k);
    return {id, placed};
}

void SeriesIndex::grow() {
    grow_slots(slots_, keys_.size(), [this](std::uint32_t id) { return hash(keys_[id]); });
}

std::uint64_t SeriesIndex::bytes() const {
    return runs_.bytes() + tags_.bytes() + keys_.capacity() * sizeof(Packed) +
           slots_.capacity() * sizeof(std::uint32_t);
}

}  // namespace runtop
