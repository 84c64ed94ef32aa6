// Key decoding that needs no curses, so tests can drive it directly: control characters and
// printable text, the escape sequences ncurses' terminfo table does not know (normal-mode
// arrows "\x1b[A" while terminfo lists application-mode "\x1bOA", modified keys
// "\x1b[1;5C", SGR mouse reports when curses did not claim them), and terminfo's extended key
// names ("kUP5" = Ctrl-Up). Names are the action table's (views/actions.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "views/input.h"

namespace runtop::ui {

// One character as wget_wch returns it (not a key code). Control characters become their key
// names (Enter, Tab, Backspace, Ctrl-A.., "Ctrl-Space" for NUL); a space is key "Space" with
// text = true; any other printable code point is its UTF-8 with text = true. C1 controls,
// surrogates and out-of-range values: nullopt (nothing to report). Esc (27) is the caller's:
// it may start a sequence.
std::optional<InputEvent> decode_char(char32_t c);

// An escape sequence, the bytes after ESC: "[A", "[1;2D", "[5~", "[Z", "OP", "[<0;5;3M",
// "[M" plus three X10 bytes. nullopt for sequences that mean nothing to runtop (focus reports,
// mouse releases and motion, unknown finals): the caller drops them whole, so they never turn
// into stray keys ("[" is pan left).
std::optional<InputEvent> decode_escape(std::string_view seq);

// "Shift-", "Alt-", "Ctrl-", "Ctrl-Shift-"... from xterm's modifier parameter (2..16; 1 or
// anything else: "").
std::string modifier_prefix(int xterm_modifier);

// terminfo's extended key capability names, as ncurses' keyname() returns them for key codes
// above KEY_MAX: "kUP5" → "Ctrl-Up", "kLFT" → "Shift-Left", "kNXT3" → "Alt-PgDn".
std::optional<std::string> decode_extended_key_name(std::string_view name);

}  // namespace runtop::ui
