# runtop: `make run` shows it working, `make test` runs every test. Both install missing
# Debian packages first (as root; otherwise they print the apt-get line to run), so the tests
# find everything they run and never install anything themselves.

BUILD       ?= build
ASAN_BUILD  ?= build-asan
FUZZ_BUILD  ?= build-fuzz
PREFIX      ?= /usr/local
DESTDIR     ?=
FUZZ_RUNS   ?= 1000000
DEMO_DIR    ?= $(BUILD)/demo-run
CMAKE_FLAGS ?=
SOAK_SECONDS ?= 300

# The build's, then what `make portable`/`make deb` run (dpkg-dev, file), then what the tests
# run (test_tools() in tests/tmux_session.cpp names each program's package; a test checks that
# this list has them all).
DEB_PACKAGES  := cmake ninja-build g++ pkg-config libfmt-dev libprotobuf-dev protobuf-compiler \
                 libre2-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev \
                 libncurses-dev libinotifytools0-dev dpkg-dev file \
                 tmux zsh groff-base openssh-server openssh-client clang-format
FUZZ_PACKAGES := clang libclang-rt-14-dev

.PHONY: all deps build run test test-release test-asan test-portable portable deb bench fuzz \
        soak install uninstall format clean

all: build

deps:
	@scripts/ensure-deps.sh $(DEB_PACKAGES)

$(BUILD)/build.ninja: CMakeLists.txt | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD)

# The dashboard on a live simulated run: 8 ranks written at 30 steps a second (runtop's own
# writers: TensorBoard event files, msProbe monitor output, a Megatron job output and MindSpore
# Transformers rank logs), a loss spike after ~7 s, a NaN
# after ~14 s, a straggling rank throughout. `q` quits; `?` shows the keys.
run: build
	rm -rf $(DEMO_DIR)
	$(BUILD)/runtop demo --dir $(DEMO_DIR) --ranks 8 --steps 600 --rate 30

test: test-release test-asan test-portable

test-release: deps build
	ctest --test-dir $(BUILD) --output-on-failure -j2

$(ASAN_BUILD)/build.ninja: CMakeLists.txt | deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DRUNTOP_SANITIZE=ON \
	      -DRUNTOP_BENCH=OFF $(CMAKE_FLAGS)

test-asan: deps $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    ctest --test-dir $(ASAN_BUILD) --output-on-failure -j2

# One statically linked runtop to copy to a login node where nothing can be installed
# (glibc, the C++ runtime, ncurses, protobuf, RE2 and inotify-tools inside; a built-in
# xterm-256color where terminfo is missing).
portable: build
	cmake --build $(BUILD) --target runtop-portable
	@echo "$(BUILD)/runtop-portable: $$(stat -c %s $(BUILD)/runtop-portable) bytes, $$(file -b $(BUILD)/runtop-portable | cut -d, -f1-4)"

# Every test again, with the ones that run the runtop binary (command line, snapshot goldens,
# follow, the dashboard in tmux and through ssh) running runtop-portable instead. All of them,
# not a list of suites: a list misses the next suite that runs the binary, and the rest take
# seconds.
test-portable: deps portable
	RUNTOP_TEST_BINARY=$(abspath $(BUILD))/runtop-portable \
	    ctest --test-dir $(BUILD) --output-on-failure -j2

# The fault-injection suite (tests/fault_injection_test.cpp) for longer than `make test` runs
# it: the mixed churn for SOAK_SECONDS, every other scenario about 50 times larger (100,000
# msProbe files), a new seed each time (printed; RUNTOP_FAULT_SEED=N replays one).
soak: build
	RUNTOP_SOAK_SECONDS=$(SOAK_SECONDS) RUNTOP_FAULT_SEED=$${RUNTOP_FAULT_SEED:-$$(date +%s)} \
	    $(BUILD)/tests/runtop_tests --gtest_filter='*FaultLive.*:FaultOneShot.*'

bench: portable
	bench/run_bench.sh $(BUILD)

fuzz: deps
	@scripts/ensure-deps.sh $(FUZZ_PACKAGES)
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	      -DCMAKE_CXX_COMPILER=clang++ -DRUNTOP_FUZZ=ON -DRUNTOP_TESTS=OFF -DRUNTOP_BENCH=OFF
	cmake --build $(FUZZ_BUILD) -j2
	tests/fuzz/run_fuzz.sh $(FUZZ_BUILD) $(FUZZ_RUNS)

# PREFIX (default /usr/local) and DESTDIR (a staging root, for packagers) as usual: the binary,
# runtop(1), bash and zsh completion, the theme files and the docs.
install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)
	@# CMake's manifest leaves DESTDIR out, and `make deb` (CPack) rewrites it with /usr paths:
	@# uninstall reads a list of its own.
	sed 's|^|$(DESTDIR)|' $(BUILD)/install_manifest.txt > $(BUILD)/installed-files.txt

# Removes what the last `make install` from $(BUILD) put in place.
uninstall:
	@test -f $(BUILD)/installed-files.txt || { echo "nothing installed from $(BUILD)"; exit 1; }
	xargs -d '\n' rm -fv < $(BUILD)/installed-files.txt
	rm -f $(BUILD)/installed-files.txt

# build/runtop_VERSION_ARCH.deb: the same files under /usr; dependencies from dpkg-shlibdeps.
deb: build
	cd $(BUILD) && cpack -G DEB
	@dpkg-deb --field $(BUILD)/runtop_*.deb Package Version Architecture Depends Installed-Size


format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
