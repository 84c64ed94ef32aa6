// Tag titles that keep what tells tags apart. Thousands of msProbe tags read
// "grad_reduced/layers.0.mlp.down_proj.weight/norm": cut at the end, every card said
// "grad_reduced/layers.0.m…". So a page drops the prefix its cards share (said once, beside
// the page number), and a title too long for its room is elided in the middle, keeping the
// first number (the layer) and the last part (the op).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace runtop::ui {

// The leading "a/b/" every tag shares, whole path parts only; "" for fewer than two tags, or
// when some tag would be left with nothing.
std::string shared_tag_prefix(std::span<const std::string_view> tags);

// `tag` in at most `columns` columns: whole when it fits; else its start through the first
// number, an ellipsis, and as many whole trailing parts as fit (the last part always), the room
// left going to more leading parts: "layers.0…weight/norm". Non-ASCII tags and rooms too small
// for that are cut at the end, as fit() does.
std::string fit_tag(std::string_view tag, int columns, bool ascii);

}  // namespace runtop::ui
