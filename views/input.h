// One input event as the views' controllers see it, terminal-free: the terminal layer
// (views/terminal/) decodes curses input into these, tests build them by hand.
#pragma once

#include <string>

namespace runtop::ui {

enum class MouseButton { kNone, kLeft, kMiddle, kRight, kWheelUp, kWheelDown };

struct InputEvent {
    enum class Kind { kKey, kMouse };
    Kind kind = Kind::kKey;
    // kKey: the key's name as the action table spells it ("q", "1", "Enter", "Esc", "Up",
    // "PgDn", "Home", "Ctrl-L", "Backspace", "Tab", "Space", "F1"...). A printable character is
    // its UTF-8 text ("a", "/", "é"); `text` is then true, so prompts can take it as input.
    std::string key;
    bool text = false;
    // kMouse: the cell (column x, row y) and the button; wheel events are buttons too.
    int x = 0, y = 0;
    MouseButton button = MouseButton::kNone;

    static InputEvent named(std::string name, bool is_text = false) {
        InputEvent e;
        e.key = std::move(name);
        e.text = is_text;
        return e;
    }
    static InputEvent mouse(int x, int y, MouseButton b) {
        InputEvent e;
        e.kind = Kind::kMouse;
        e.x = x;
        e.y = y;
        e.button = b;
        return e;
    }
};

}  // namespace runtop::ui
