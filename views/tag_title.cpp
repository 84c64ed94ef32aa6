#include "views/tag_title.h"

#include <algorithm>
#include <vector>

#include "views/canvas.h"

namespace runtop::ui {
namespace {

// Where a part of a tag ends: path, module and msProbe's vpp/micro-step separators; not '_',
// which joins the words of one name ("down_proj").
bool separator(char c) {
    return c == '/' || c == '.' || c == ':';
}

bool ascii_only(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u >= 0x20 && u < 0x7f;
    });
}

}  // namespace

std::string shared_tag_prefix(std::span<const std::string_view> tags) {
    if (tags.size() < 2) return {};
    std::string_view first = tags.front();
    std::size_t common = first.size();
    for (std::string_view t : tags.subspan(1)) {
        std::size_t i = 0;
        while (i < common && i < t.size() && t[i] == first[i]) ++i;
        common = i;
    }
    // Back to the last '/' inside the common part; a tag equal to it keeps it.
    const std::size_t slash = first.substr(0, common).rfind('/');
    if (slash == std::string_view::npos) return {};
    for (std::string_view t : tags)
        if (t.size() <= slash + 1) return {};
    return std::string(first.substr(0, slash + 1));
}

std::string fit_tag(std::string_view tag, int columns, bool ascii) {
    const auto n = static_cast<int>(tag.size());
    if (!ascii_only(tag) || n <= columns) return fit(tag, columns, ascii);
    // Where each part starts: 0 and every index after a separator.
    std::vector<int> starts = {0};
    for (int i = 1; i < n; ++i)
        if (separator(tag[i - 1]) && !separator(tag[i])) starts.push_back(i);
    // The last part (after the last '/', else the last part at all) stays whole.
    const std::size_t slash = tag.rfind('/');
    int tail = starts.back();
    if (slash != std::string_view::npos && static_cast<int>(slash) + 1 < n)
        tail = static_cast<int>(slash) + 1;
    // The start through the end of the first number (the layer), when before the last part.
    int head = 0;
    for (int i = 0; i < tail; ++i)
        if (tag[i] >= '0' && tag[i] <= '9') {
            head = i;
            while (head < tail && tag[head] >= '0' && tag[head] <= '9') ++head;
            break;
        }
    auto width = [&](int h, int t) { return h + 1 + (n - t); };
    if (width(head, tail) > columns) head = 0;
    if (width(head, tail) > columns) return fit(tag, columns, ascii);
    // Whole parts: first to the end (the more specific), then to the start.
    for (auto it = starts.rbegin(); it != starts.rend(); ++it)
        if (*it<tail&& * it> head && width(head, *it) <= columns) tail = *it;
    for (int s : starts)
        if (s > head && s < tail && width(s, tail) <= columns) head = s;
    // Separators at the cut read as noise: "layers.0…weight", not "layers.0.…weight".
    while (head > 0 && separator(tag[head - 1]) && tag[head - 1] != '/') --head;
    return std::string(tag.substr(0, head)) + (ascii ? "~" : "…") + std::string(tag.substr(tail));
}

}  // namespace runtop::ui
