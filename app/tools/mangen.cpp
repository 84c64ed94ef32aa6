// runtop_mangen SOURCE OUT: writes runtop(1) from docs/runtop.1.in and the program's own tables
// (app/man_page.h). Run by the build; not installed.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/cli.h"
#include "app/man_page.h"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: runtop_mangen SOURCE OUT\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "runtop_mangen: %s: cannot read\n", argv[1]);
        return 2;
    }
    std::stringstream source;
    source << in.rdbuf();
    runtop::Result<std::string> page = runtop::man_page(source.str(), runtop::version());
    if (!page) {
        std::fprintf(stderr, "runtop_mangen: %s: %s\n", argv[1], page.error().message.c_str());
        return 2;
    }
    std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
    out << *page;
    if (!out) {
        std::fprintf(stderr, "runtop_mangen: %s: cannot write\n", argv[2]);
        return 2;
    }
    return 0;
}
