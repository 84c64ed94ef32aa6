// What `make install` and the .deb lay out (cmake/packaging.cmake): the binary, the gzipped man
// page, both completions (zsh's directory by prefix), the theme files and the docs. Installed
// with `cmake --install --component Unspecified`, which writes its own manifest and leaves the
// one `make uninstall` reads alone.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <string>
#include <vector>

#include "tests/test_support.h"
#include "tests/tmux_session.h"

namespace runtop {
namespace {

bool is_file(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

void install_to(const std::string& prefix) {
    const testing::ProcessOutput r =
        testing::run_process({RUNTOP_CMAKE, "--install", RUNTOP_BUILD_DIR, "--component",
                              "Unspecified", "--prefix", prefix});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(Install, LaysOutEveryFileUnderThePrefix) {
    testing::TempDir d;
    const std::string usr = d / "usr", local = d / "opt/runtop";
    install_to(usr);
    install_to(local);
    for (const std::string& prefix : {usr, local}) {
        for (const char* file :
             {"bin/runtop", "share/man/man1/runtop.1.gz",
              "share/bash-completion/completions/runtop", "share/runtop/themes/dark.json",
              "share/runtop/themes/cvd.json", "share/runtop/themes/README.md",
              "share/doc/runtop/README.md", "share/doc/runtop/CHANGELOG.md",
              "share/doc/runtop/howto.md", "share/doc/runtop/config.md"})
            EXPECT_TRUE(is_file(prefix + "/" + file)) << prefix << "/" << file;
    }
    // Debian's zsh reads vendor-completions under /usr, site-functions elsewhere.
    EXPECT_TRUE(is_file(usr + "/share/zsh/vendor-completions/_runtop"));
    EXPECT_TRUE(is_file(local + "/share/zsh/site-functions/_runtop"));
    EXPECT_FALSE(is_file(local + "/share/zsh/vendor-completions/_runtop"));
    // The installed binary is the built one, and its page is the built page.
    const testing::ProcessOutput v = testing::run_process({usr + "/bin/runtop", "--version"});
    EXPECT_EQ(v.exit_code, 0);
    EXPECT_EQ(v.out.rfind("runtop ", 0), 0u) << v.out;
    const testing::ProcessOutput page = testing::run_process(
        {"sh", "-c",
         "gzip -dc '" + usr + "/share/man/man1/runtop.1.gz' | cmp - '" + RUNTOP_MAN_PAGE + "'"});
    EXPECT_EQ(page.exit_code, 0) << page.out << page.err;
}

}  // namespace
}  // namespace runtop
