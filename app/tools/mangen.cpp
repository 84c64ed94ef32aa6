// runtop_mangen: writes the files made from runtop's own tables at build time; not installed.
//   runtop_mangen man SOURCE OUT   runtop(1) from docs/runtop.1.in (app/man_page.h)
//   runtop_mangen bash OUT         bash completion (app/completion.h)
//   runtop_mangen zsh OUT          zsh completion
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "app/cli.h"
#include "app/completion.h"
#include "app/man_page.h"

namespace {

int usage() {
    std::fprintf(stderr, "usage: runtop_mangen man SOURCE OUT | bash OUT | zsh OUT\n");
    return 2;
}

int write(const char* path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
        std::fprintf(stderr, "runtop_mangen: %s: cannot write\n", path);
        return 2;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    const std::string mode = argv[1];
    if (mode == "bash" && argc == 3) return write(argv[2], runtop::bash_completion());
    if (mode == "zsh" && argc == 3) return write(argv[2], runtop::zsh_completion());
    if (mode != "man" || argc != 4) return usage();
    std::ifstream in(argv[2], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "runtop_mangen: %s: cannot read\n", argv[2]);
        return 2;
    }
    std::stringstream source;
    source << in.rdbuf();
    runtop::Result<std::string> page = runtop::man_page(source.str(), runtop::version());
    if (!page) {
        std::fprintf(stderr, "runtop_mangen: %s: %s\n", argv[2], page.error().message.c_str());
        return 2;
    }
    return write(argv[3], *page);
}
