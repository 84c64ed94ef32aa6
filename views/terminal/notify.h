// The bytes of a bell or a desktop notification (config "notify", issue 19): runtop's
// dashboard rings on each new major incident when asked to. Written to the terminal between two
// frames (Terminal::write_between_frames), never inside one: an escape sequence in the middle
// of curses' output could split one of its own.
//
// Desktop: OSC 9 (iTerm2, WezTerm, Windows Terminal, kitty) and OSC 777 (urxvt, foot, Ghostty,
// VTE terminals); a terminal ignores the one it does not know. Inside tmux each goes through
// its passthrough (ESC P tmux; ... ESC \, every ESC inside doubled), else tmux swallows it
// (tmux needs `allow-passthrough on` since 3.3).
#pragma once

#include <string>
#include <string_view>

namespace runtop::ui {

enum class NotifyMode { kOff, kBell, kDesktop };

// "off", "bell", "desktop"; false for anything else.
bool parse_notify_mode(std::string_view text, NotifyMode& mode);

// What to write for `text` ("" for kOff). The text is made safe first: control characters
// (which would end the sequence early) become spaces, and it is cut to 200 bytes.
std::string notification_bytes(NotifyMode mode, std::string_view text, bool in_tmux);

// tmux's passthrough around one escape sequence.
std::string tmux_passthrough(std::string_view sequence);

}  // namespace runtop::ui
