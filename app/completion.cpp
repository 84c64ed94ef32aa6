#include "app/completion.h"

#include <fmt/format.h>

#include <span>
#include <string_view>
#include <vector>

#include "app/cli.h"
#include "views/theme.h"

namespace runtop {
namespace {

enum class ValueKind { kNone, kWords, kFile, kDir, kTheme, kFree };

// What an option's value completes to, from its placeholder.
ValueKind value_kind(const OptionSpec& o) {
    if (o.value.empty()) return ValueKind::kNone;
    if (o.name == "theme") return ValueKind::kTheme;
    if (o.value.find('|') != std::string_view::npos) return ValueKind::kWords;
    if (o.value == "FILE") return ValueKind::kFile;
    if (o.value == "DIR") return ValueKind::kDir;
    return ValueKind::kFree;
}

// "auto|never|always" -> "auto never always".
std::string words(std::string_view value) {
    std::string out(value);
    for (char& c : out)
        if (c == '|') c = ' ';
    return out;
}

std::string builtin_theme_names() {
    std::string out;
    for (const ui::BuiltinTheme& t : ui::builtin_themes())
        out += (out.empty() ? "" : " ") + std::string(t.name);
    return out;
}

// The subcommands' names (not the dashboard's empty one), joined: "ls dump ..." or "ls|dump|...".
std::string subcommands(std::string_view separator) {
    std::string out;
    for (const Command& c : commands())
        if (!c.name.empty())
            out += (out.empty() ? "" : std::string(separator)) + std::string(c.name);
    return out;
}

// The command's option words, "--a --b".
std::string option_words(const Command& c) {
    std::string out;
    for (const OptionSpec& o : *c.options)
        out += (out.empty() ? "--" : " --") + std::string(o.name);
    return out;
}

// A description for zsh: the help's first clause, without the characters _arguments treats as
// syntax ([ ] :) and with single quotes closed and reopened.
std::string zsh_description(std::string_view help) {
    std::string_view first = help.substr(0, help.find_first_of(";("));
    while (!first.empty() && first.back() == ' ') first.remove_suffix(1);
    std::string out;
    for (char c : first) {
        if (c == '[') {
            out += '(';
        } else if (c == ']') {
            out += ')';
        } else if (c == ':') {
            out += "\\:";
        } else if (c == '\'') {
            out += "'\\''";
        } else if (c == '`') {
            continue;
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace

std::string bash_completion() {
    std::string option_lists, value_arms;
    for (const Command& c : runtop::commands()) {
        option_lists += fmt::format("        {}) opts=\"{}\" ;;\n", "'" + std::string(c.name) + "'",
                                    option_words(c));
        for (const OptionSpec& o : *c.options) {
            const std::string pattern = fmt::format("'{}:--{}'", c.name, o.name);
            switch (value_kind(o)) {
                case ValueKind::kNone:
                    break;
                case ValueKind::kWords:
                    value_arms += fmt::format(
                        "        {}) COMPREPLY=($(compgen -W '{}' -- \"$cur\")); return ;;\n",
                        pattern, words(o.value));
                    break;
                case ValueKind::kTheme:
                    value_arms += fmt::format(
                        "        {}) COMPREPLY=($(compgen -W \"$(_runtop_themes)\" -- \"$cur\"));"
                        " return ;;\n",
                        pattern);
                    break;
                case ValueKind::kFile:
                case ValueKind::kDir:
                    value_arms += fmt::format(
                        "        {}) compopt -o filenames 2>/dev/null; "
                        "COMPREPLY=($(compgen -{} -- \"$cur\")); return ;;\n",
                        pattern, value_kind(o) == ValueKind::kFile ? 'f' : 'd');
                    break;
                case ValueKind::kFree:
                    // A regex, a rank spec, a size: nothing to offer, and not a path either.
                    if (!o.value_optional)
                        value_arms += fmt::format("        {}) COMPREPLY=(); return ;;\n", pattern);
                    break;
            }
        }
    }
    return fmt::format(
        R"(# bash completion for runtop {version}: subcommands, options, option values (theme names
# included) and paths. Generated from runtop's command table by runtop_mangen; do not edit.
# Installed as share/bash-completion/completions/runtop; or: source this file.

_runtop_themes() {{
    local dir=${{XDG_CONFIG_HOME:-$HOME/.config}}/runtop/themes f
    printf '%s\n' {themes}
    for f in "$dir"/*.json; do
        [[ -e $f ]] || continue
        f=${{f##*/}}
        printf '%s\n' "${{f%.json}}"
    done
}}

_runtop() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev='' cmd='' opts
    ((COMP_CWORD > 0)) && prev=${{COMP_WORDS[COMP_CWORD - 1]}}
    # "--opt=VALUE": bash splits it at '=' (COMP_WORDBREAKS), or leaves it whole.
    if [[ $prev == '=' && $COMP_CWORD -ge 2 ]]; then
        prev=${{COMP_WORDS[COMP_CWORD - 2]}}
    elif [[ $cur == --*=* ]]; then
        prev=${{cur%%=*}}
        cur=${{cur#*=}}
    fi
    # A subcommand is the first word only; anything else there is the dashboard.
    if ((COMP_CWORD > 1)); then
        case ${{COMP_WORDS[1]}} in
            {command_pattern}) cmd=${{COMP_WORDS[1]}} ;;
        esac
    fi
    case "$cmd:$prev" in
{value_arms}    esac
    case $cmd in
{option_lists}    esac
    if [[ $cur == -* ]]; then
        ((COMP_CWORD == 1)) && opts="$opts --print-config --version --help"
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    [[ $cmd == --* ]] && return
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
    if ((COMP_CWORD == 1)); then
        COMPREPLY+=($(compgen -W '{commands}' -- "$cur"))
    fi
}}

complete -F _runtop runtop
)",
        fmt::arg("version", version()), fmt::arg("themes", builtin_theme_names()),
        fmt::arg("command_pattern", subcommands("|")), fmt::arg("value_arms", value_arms),
        fmt::arg("option_lists", option_lists), fmt::arg("commands", subcommands(" ")));
}

std::string zsh_completion() {
    std::string command_list, arms, dashboard;
    for (const Command& c : runtop::commands()) {
        std::string specs;
        for (const OptionSpec& o : *c.options) {
            std::string action;
            switch (value_kind(o)) {
                case ValueKind::kNone:
                    break;
                case ValueKind::kWords:
                    action = fmt::format(":{}:({})", o.name, words(o.value));
                    break;
                case ValueKind::kTheme:
                    action = ":theme:_runtop_themes";
                    break;
                case ValueKind::kFile:
                    action = ":file:_files";
                    break;
                case ValueKind::kDir:
                    action = ":directory:_files -/";
                    break;
                case ValueKind::kFree:
                    action = fmt::format(":{}: ", o.value);
                    break;
            }
            // "--opt=": the value after '=' or as the next word. "--opt=-" with "::": only
            // after '=', and it may be left out (--poll[=MS]).
            std::string form;
            if (!o.value.empty()) form = o.value_optional ? "=-" : "=";
            if (o.value_optional) action = ":" + action;
            specs += fmt::format(" \\\n        '--{}{}[{}]{}'", o.name, form,
                                 zsh_description(o.help), action);
        }
        if (c.operands.find("PATH") != std::string_view::npos)
            specs += " \\\n        '*:path:_files'";
        if (c.name.empty()) {
            dashboard = specs;
            continue;
        }
        command_list += fmt::format("        '{}:{}'\n", c.name, zsh_description(c.summary));
        arms +=
            fmt::format("            {})\n                _arguments -s -S{}\n                ;;\n",
                        c.name, specs);
    }
    return fmt::format(
        R"(#compdef runtop
# zsh completion for runtop {version}: subcommands, options, option values (theme names
# included) and paths. Generated from runtop's command table by runtop_mangen; do not edit.
# Installed as _runtop in a directory of $fpath.

_runtop_themes() {{
    local -a themes
    themes=({themes} ${{XDG_CONFIG_HOME:-$HOME/.config}}/runtop/themes/*.json(N:t:r))
    _describe -t themes theme themes
}}

_runtop_commands() {{
    local -a commands
    commands=(
{command_list}    )
    _describe -t commands command commands
}}

_runtop() {{
    # A subcommand is the first word only; anything else there is the dashboard.
    if (( CURRENT > 2 )); then
        case $words[2] in
            ({command_pattern})
                local cmd=$words[2]
                shift words
                (( CURRENT-- ))
                case $cmd in
{arms}                esac
                return
                ;;
        esac
    fi
    # The second word: a subcommand, or the dashboard's options and paths.
    (( CURRENT == 2 )) && _runtop_commands
    _runtop_dashboard
}}

_runtop_dashboard() {{
    _arguments -s -S{dashboard}
}}

_runtop "$@"
)",
        fmt::arg("version", version()), fmt::arg("themes", builtin_theme_names()),
        fmt::arg("command_list", command_list), fmt::arg("command_pattern", subcommands("|")),
        fmt::arg("arms", arms), fmt::arg("dashboard", dashboard));
}

}  // namespace runtop
