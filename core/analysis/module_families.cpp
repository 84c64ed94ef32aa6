#include "core/analysis/module_families.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <tuple>
#include <utility>

#include "core/analysis/msprobe_tag.h"

namespace runtop {
namespace {

// msProbe's CSV prefixes (FORMATS.md §1.3): only these make a tag msProbe's, so a TensorBoard tag
// of three parts is never taken for one.
bool msprobe_prefix(std::string_view p) {
    static constexpr std::string_view kPrefixes[] = {
        "actv",         "actv_grad",     "grad_reduced", "grad_unreduced", "param",
        "param_origin", "param_updated", "exp_avg",      "exp_avg_sq",     "other"};
    return std::find(std::begin(kPrefixes), std::end(kPrefixes), p) != std::end(kPrefixes);
}

// Prefixes whose rows msProbe writes in the order the backward hooks ran (the last module
// first): their modules take the forward order the other prefixes give the same names.
bool backward_prefix(std::string_view p) {
    return p == "actv_grad" || p == "grad_reduced" || p == "grad_unreduced";
}

bool layer_word(std::string_view w) {
    return w == "layers" || w == "layer" || w == "h" || w == "blocks" || w == "block";
}

std::optional<std::int64_t> number(std::string_view s) {
    std::int64_t n = 0;
    if (s.empty() || s.size() > 18) return std::nullopt;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return n;
}

std::vector<std::string_view> split(std::string_view s, std::string_view separators) {
    std::vector<std::string_view> out;
    std::size_t from = 0;
    for (std::size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || separators.find(s[i]) != std::string_view::npos) {
            out.push_back(s.substr(from, i - from));
            from = i + 1;
        }
    return out;
}

struct Parsed {
    std::string task, op, module;
    std::int64_t vpp = 0;
    bool msprobe = false;
    bool layered = false;  // a generic tag whose module part has a layer number
};

// A tag's family and module; nullopt when it is neither msProbe's nor names a module.
std::optional<Parsed> parse(std::string_view tag) {
    const MsProbeSeriesTag m = parse_msprobe_series_tag(tag);
    if (m.ok && msprobe_prefix(m.prefix) && !m.name.empty()) {
        Parsed p{std::string(m.prefix), std::string(m.op), std::string(m.name), m.vpp, true};
        if (m.vpp != 0) p.module = std::to_string(m.vpp) + ":" + p.module;
        return p;
    }
    const std::vector<std::string_view> parts = split(tag, "/");
    std::optional<std::size_t> at;
    for (std::size_t i = 0; i < parts.size() && !at; ++i)
        if (module_layer(parts[i])) at = i;
    // Not layered: a dotted middle part may still be a module (model.norm.weight); the caller
    // keeps it only in a family that has layered modules.
    if (!at)
        for (std::size_t i = 0; i < parts.size() && !at; ++i)
            if (parts[i].find('.') != std::string_view::npos && parts[i].front() != '.' &&
                parts[i].back() != '.')
                at = i;
    if (!at) return std::nullopt;
    Parsed p;
    p.module = std::string(parts[*at]);
    p.layered = module_layer(parts[*at]).has_value();
    for (std::size_t i = 0; i < *at; ++i) p.task += (i ? "/" : "") + std::string(parts[i]);
    for (std::size_t i = *at + 1; i < parts.size(); ++i)
        p.op += (i > *at + 1 ? "/" : "") + std::string(parts[i]);
    return p;
}

}  // namespace

std::optional<std::int64_t> module_layer(std::string_view name) {
    const std::vector<std::string_view> parts = split(name, "./");
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0 && layer_word(parts[i - 1]))
            if (std::optional<std::int64_t> n = number(parts[i])) return n;
        const std::size_t u = parts[i].rfind('_');
        if (u != std::string_view::npos && layer_word(parts[i].substr(0, u)))
            if (std::optional<std::int64_t> n = number(parts[i].substr(u + 1))) return n;
    }
    return std::nullopt;
}

std::vector<ModuleFamily> module_families(std::span<const std::string_view> tags) {
    struct Building {
        ModuleFamily family;
        bool layered = false;
        std::map<std::string, std::size_t, std::less<>> module_at;
        std::vector<std::size_t> first_seen;  // per module: the index of its first tag
        std::vector<bool> forward;            // per module: first_seen from a forward prefix
    };
    std::vector<Building> families;
    std::map<std::pair<std::string, std::string>, std::size_t> family_at;
    // msProbe modules by when a forward-order prefix first named them.
    std::map<std::string, std::size_t, std::less<>> forward_seen;
    std::vector<std::optional<Parsed>> parsed(tags.size());
    for (std::size_t t = 0; t < tags.size(); ++t) {
        parsed[t] = parse(tags[t]);
        const std::optional<Parsed>& p = parsed[t];
        if (p && p->msprobe && !backward_prefix(p->task)) forward_seen.try_emplace(p->module, t);
    }
    for (std::size_t t = 0; t < tags.size(); ++t) {
        std::optional<Parsed>& p = parsed[t];
        if (!p) continue;
        auto [it, added] = family_at.try_emplace({p->task, p->op}, families.size());
        if (added) {
            families.emplace_back();
            families.back().family.task = p->task;
            families.back().family.op = p->op;
            families.back().family.msprobe = p->msprobe;
        }
        Building& b = families[it->second];
        b.layered = b.layered || p->layered || p->msprobe;
        auto [m, new_module] = b.module_at.try_emplace(p->module, b.family.modules.size());
        if (new_module) {
            FamilyModule fm;
            fm.name = p->module;
            fm.vpp = p->vpp;
            fm.layer = module_layer(p->module);
            b.family.modules.push_back(std::move(fm));
            // A backward prefix's module: when the forward order first named it, if it did.
            std::size_t seen = t;
            if (p->msprobe && backward_prefix(p->task))
                if (const auto f = forward_seen.find(p->module); f != forward_seen.end())
                    seen = f->second;
            b.first_seen.push_back(seen);
            b.forward.push_back(seen != t);
        }
        b.family.modules[m->second].tags.push_back(t);
    }

    std::vector<ModuleFamily> out;
    for (Building& b : families) {
        if (!b.layered) continue;  // dotted names with no layer anywhere: not a model's modules
        // Model order: (vpp, layer, first seen); a module without a layer after the highest
        // layer seen before it (-1: before every layer).
        const std::size_t n = b.family.modules.size();
        // Forward positions only when every module has one: two clocks do not mix.
        if (std::find(b.forward.begin(), b.forward.end(), false) != b.forward.end())
            for (std::size_t i = 0; i < n; ++i) b.first_seen[i] = b.family.modules[i].tags.front();
        std::vector<std::size_t> by_seen(n);
        for (std::size_t i = 0; i < n; ++i) by_seen[i] = i;
        std::sort(by_seen.begin(), by_seen.end(),
                  [&](std::size_t a, std::size_t c) { return b.first_seen[a] < b.first_seen[c]; });
        std::vector<std::tuple<std::int64_t, std::int64_t, std::size_t>> key(n);
        std::map<std::int64_t, std::int64_t> highest;  // per vpp
        for (std::size_t i : by_seen) {
            const FamilyModule& m = b.family.modules[i];
            auto [h, fresh] = highest.try_emplace(m.vpp, -1);
            key[i] = {m.vpp, m.layer.value_or(h->second), b.first_seen[i]};
            if (m.layer) h->second = std::max(h->second, *m.layer);
        }
        std::vector<std::size_t> order = by_seen;
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t c) { return key[a] < key[c]; });
        ModuleFamily f;
        f.task = std::move(b.family.task);
        f.op = std::move(b.family.op);
        f.msprobe = b.family.msprobe;
        for (std::size_t i : order) f.modules.push_back(std::move(b.family.modules[i]));
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace runtop
