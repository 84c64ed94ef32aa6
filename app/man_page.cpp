#include "app/man_page.h"

#include <span>
#include <vector>

#include "app/cli.h"
#include "app/config.h"
#include "views/actions.h"

namespace runtop {
namespace {

std::string command_synopsis(const Command& c) {
    // .SY/.OP would need groff's extended macros; plain bold and italics render everywhere.
    return ".PP\n" + roff_escape(synopsis(c)) + "\n";
}

std::string command_section(const Command& c) {
    std::string out = ".SS \"";
    out += c.name.empty() ? std::string("runtop [OPTIONS] [NAME=]PATH...")
                          : "runtop " + roff_escape(c.name);
    out += "\"\n" + roff_escape(c.summary) + "\n";
    for (const OptionSpec& o : *c.options) {
        out += ".TP\n\\fB\\-\\-" + roff_escape(o.name) + "\\fR";
        if (!o.value.empty())
            out += o.value_optional ? "[=\\fI" + roff_escape(o.value) + "\\fR]"
                                    : " \\fI" + roff_escape(o.value) + "\\fR";
        out += "\n" + roff_escape(o.help) + "\n";
    }
    return out;
}

std::string keys_section() {
    std::string out;
    std::string_view group;
    for (const ui::Binding& b : ui::bindings()) {
        if (b.group != group) {
            group = b.group;
            out += ".SS \"" + roff_escape(group) + "\"\n";
        }
        out += ".TP\n";
        for (std::size_t i = 0; i < b.keys.size(); ++i) {
            if (i) out += ", ";
            out += "\\fB" + roff_escape(b.keys[i]) + "\\fR";
        }
        out += "\n" + roff_escape(b.help);
        if (b.scope != ui::Scope::kGlobal) out += " (" + roff_escape(ui::scope_name(b.scope)) + ")";
        out += "\n";
    }
    return out;
}

std::string config_section() {
    std::string out;
    for (const ConfigKey& k : config_keys()) {
        out += ".TP\n\\fB" + roff_escape(k.name) + "\\fR: " + roff_escape(k.values) + "\n" +
               roff_escape(k.help);
        if (!k.option.empty()) out += " (\\fB" + roff_escape(k.option) + "\\fR)";
        out += "\n";
    }
    return out;
}

}  // namespace

std::string roff_escape(std::string_view text) {
    std::string out;
    bool line_start = true;
    for (char c : text) {
        if (line_start && (c == '.' || c == '\'')) out += "\\&";
        line_start = c == '\n';
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    return out;
}

Result<std::string> man_page(std::string_view source, std::string_view version) {
    std::string out;
    bool synopsis = false, command_list = false, keys = false, config = false;
    std::size_t line_no = 0;
    while (!source.empty()) {
        const std::size_t nl = source.find('\n');
        std::string_view line = source.substr(0, nl);
        source.remove_prefix(nl == std::string_view::npos ? source.size() : nl + 1);
        ++line_no;
        if (line == "@SYNOPSIS@") {
            for (const Command& c : commands()) out += command_synopsis(c);
            synopsis = true;
        } else if (line == "@COMMANDS@") {
            for (const Command& c : commands()) out += command_section(c);
            command_list = true;
        } else if (line == "@KEYS@") {
            out += keys_section();
            keys = true;
        } else if (line == "@CONFIG@") {
            out += config_section();
            config = true;
        } else {
            std::string text(line);
            for (std::size_t at; (at = text.find("@VERSION@")) != std::string::npos;)
                text.replace(at, 9, roff_escape(version));
            const std::size_t a = text.find('@');
            if (a != std::string::npos && text.find('@', a + 1) != std::string::npos &&
                text.find_first_of(" \t", a) > text.find('@', a + 1))
                return Error{"man page source line " + std::to_string(line_no) +
                             ": unknown placeholder in '" + text + "'"};
            out += text;
            out += '\n';
        }
    }
    if (!synopsis || !command_list || !keys || !config)
        return Error{
            "man page source: @SYNOPSIS@, @COMMANDS@, @KEYS@ and @CONFIG@ must each have a line"};
    return out;
}

}  // namespace runtop
