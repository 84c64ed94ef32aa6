#include "core/store/series_index.h"

#include <cstring>
#include <functional>

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

// Where `hash` probes first in a power-of-two table.
std::size_t home(std::uint64_t hash, std::size_t slots) {
    return hash & (slots - 1);
}

}  // namespace

std::uint32_t InternedNames::intern(std::string_view name) {
    if (last_ != UINT32_MAX && names_[last_] == name) return last_;
    if ((names_.size() + 1) * 2 > slots_.size()) grow();
    const std::uint64_t h = std::hash<std::string_view>{}(name);
    for (std::size_t i = home(h, slots_.size());; i = (i + 1) & (slots_.size() - 1)) {
        const std::uint32_t slot = slots_[i];
        if (slot == 0) {
            const auto id = static_cast<std::uint32_t>(names_.size());
            names_.push_back(store(name));
            slots_[i] = id + 1;
            return last_ = id;
        }
        if (names_[slot - 1] == name) return last_ = slot - 1;
    }
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
    std::vector<std::uint32_t> slots(std::max(kMinSlots, slots_.size() * 2), 0);
    for (std::uint32_t id = 0; id < names_.size(); ++id) {
        std::size_t i = home(std::hash<std::string_view>{}(names_[id]), slots.size());
        while (slots[i] != 0) i = (i + 1) & (slots.size() - 1);
        slots[i] = id + 1;
    }
    slots_ = std::move(slots);
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
    for (std::size_t i = home(hash(k), slots_.size());; i = (i + 1) & (slots_.size() - 1)) {
        const std::uint32_t slot = slots_[i];
        if (slot == 0) {
            const auto id = static_cast<SeriesId>(keys_.size());
            keys_.push_back(k);
            slots_[i] = id + 1;
            return {id, true};
        }
        if (keys_[slot - 1] == k) return {slot - 1, false};
    }
}

void SeriesIndex::grow() {
    std::vector<std::uint32_t> slots(std::max(kMinSlots, slots_.size() * 2), 0);
    for (std::uint32_t id = 0; id < keys_.size(); ++id) {
        std::size_t i = home(hash(keys_[id]), slots.size());
        while (slots[i] != 0) i = (i + 1) & (slots.size() - 1);
        slots[i] = id + 1;
    }
    slots_ = std::move(slots);
}

std::uint64_t SeriesIndex::bytes() const {
    return runs_.bytes() + tags_.bytes() + keys_.capacity() * sizeof(Packed) +
           slots_.capacity() * sizeof(std::uint32_t);
}

}  // namespace runtop
