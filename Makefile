# dyn-tick workbench: the series lives in NNNN-*.patch + cover-letter.txt;
# the kernel tree is unpacked and patched under $(WORK), outside git.
#
#   make deps      install what is missing from Debian's archive
#   make tree      unpack linux-source-6.1, base commit, git am the series
#   make export    regenerate the patch files from the worktree's commits
#   make build     feature-on and feature-off kernels of the tip
#   make run       the main job: deps, tree, build, boot, show what it does
#   make shell     boot the patched kernel into a shell on the serial console
#   make test      the README's test command (CI): check, matrix, randconfig
#   make check     the full per-commit check
#   make retest    build the worktree as it is (edits included), boot the tip's plan
#   make matrix    the robustness matrix at the tip (ROWS="a b" for some)
#   make randconfig  random configurations with the feature on (SEEDS="0x1234 random")
#   make mutants   build and run every mutant of ci/mutants.conf (MUTANTS="a b")
#   make selftest  only the harness self-test
#   make bench     periodic vs dyn-tick vs NO_HZ_IDLE, one run, side by side
#   make wakes     what wakes an idle guest on the PIT, by trace (dyn-tick, NO_HZ_IDLE)
#   make send      write the series as mail (mbox) and a send-email dry run
#   make clean     remove the build directories (keeps the tree)
#
# tree (and build, run, matrix, selftest, bench, wakes, check, which start with it)
# refuses to throw away commits or edits in the tree that the patch files do
# not carry, and export refuses to leave out commits or overwrite patch
# files that changed since; FORCE=1 (make tree FORCE=1) does it on purpose.

TOP   := $(CURDIR)
WORK  ?= $(TOP)/.work
TREE  ?= $(WORK)/linux
FORCE ?=
export TOP WORK TREE FORCE

.PHONY: deps tree export build run shell test check retest matrix randconfig mutants selftest bench wakes send clean

deps:
	@bash ci/deps.sh

tree: deps
	@bash ci/tree.sh

export:
	@bash ci/export.sh

build: tree
	@bash ci/build.sh $(WORK)/build-on base dyntick-on
	@bash ci/build.sh $(WORK)/build-off base dyntick-off

run: build
	@bash ci/run.sh

shell:
	@bash ci/shell.sh $(VCPUS)

test:
	@bash ci/test.sh

check:
	@bash ci/check.sh

retest: deps
	@bash ci/retest.sh

matrix: tree
	@bash ci/matrix.sh $(ROWS)

randconfig: tree
	@bash ci/randconfig.sh $(SEEDS)

mutants: tree
	@bash ci/mutants.sh $(MUTANTS)

selftest: tree
	@bash ci/guest.sh >/dev/null
	@bash ci/build.sh $(WORK)/build-on base dyntick-on >/dev/null
	@bash ci/selftest.sh

bench: tree
	@bash ci/bench.sh

wakes: tree
	@bash ci/wakes.sh

send:
	@bash ci/send.sh

clean:
	rm -rf $(WORK)/build-* $(WORK)/guest $(WORK)/logs
