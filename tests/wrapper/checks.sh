# SPDX-License-Identifier: GPL-2.0
#
# wrapper_test.sh's part on the checks the wrapper applies to saved
# results (-c), each shown passing and failing, with the stable names
# and figures CI keeps (doc/ci.rst), NIPA's reading, busybox, hostile
# paths and values; sourced by it.  A whole file, every check of its 20
# tests, is run once and serves every case about it (expect_ran); a
# case about a test or two reads a file of those only.

sh "$WRAPPER" -c "$ICOUNT" >"$dir/ran.ktap" 2>&1
ran_rc=$?
sh "$WRAPPER" -c "$TCG" >"$dir/tcg.ktap" 2>&1
tcg_rc=$?
expect_ran "-c, instruction counts: 113 checks, the 6 of the cross-CPU test skips" 0 0 \
	'^# Totals: pass:107 fail:0 xfail:0 xpass:0 skip:6 error:0$' \
	"$dir/ran.ktap" $ran_rc
expect_ran "-c: each test's line is its name, its figures after # as key=value" 0 0 \
	'^ok [0-9]+ tasklet_page_pool01_fast_path # value=75\.00 unit=instructions instrument=icount stat=min median=75\.00 stddev=0\.00 max=75\.00 reps=1 loops=20000$' \
	"$dir/ran.ktap" $ran_rc
expect_ran "-c, emulated cycles: ns too, the instrument tcg" 0 0 \
	'^ok [0-9]+ tasklet_page_pool01_fast_path # value=185\.77 unit=cycles instrument=tcg stat=min median=185\.90 stddev=1\.15 max=187\.82 ns=88\.65 reps=3 loops=371841$' \
	"$dir/tcg.ktap" $tcg_rc
expect_ktap "-c, a format-2 file: refused, the checks need format 3" 1 1 \
	'^# .*format2\.results:1: not a results file of format 3 of bench_page_pool_simple$' \
	-c "$DATA/format2.results"
expect_ktap "-c, a cut file: refused at its line, and nothing else is read" \
	1 1 "^# $cut:1: results block cut short: no end: line$" -c "$cut"
f=$(variant invoke.results '/name=lock /{s/ invoke_count=20000 / invoke_count=19999 /;s/ cycles_per_elem=22\.081 / cycles_per_elem=22.083 /;s/ ns_per_elem=22\.086 / ns_per_elem=22.087 /;}' \
	"$(only invoke-base.results "$ICOUNT" lock)")
expect_ktap "-c: an invoke count that is not loops" 1 1 \
	'^not ok [0-9]+ lock # value=22\.08 .* loops=19999$' -c "$f"
grep -q '^# lock: invoke count 19999, want 20000, in each of 1 repetitions (20000 in all)$' "$out"
ktap_test_result "-c: and says so" test $? = 0
f=$(variant context.results '/name=tasklet_page_pool01_fast_path /s/ context=softirq / context=process /' \
	"$(only context-base.results "$ICOUNT" tasklet_page_pool01_fast_path)")
expect_ktap "-c: a test that ran in another context" 1 1 \
	'^not ok [0-9]+ tasklet_page_pool01_fast_path context # context=process want=softirq$' \
	-c "$f"
E2E=$DATA/e2e.results	# the module's tests and the scenarios' rows
expect_ktap "-c, the end-to-end scenarios' rows: 140 checks, none failed" \
	0 0 '^ok [0-9]+ xdp_live_drop context # context=e2e want=e2e$' -c "$E2E"
f=$(variant e2e-cpu.results '/name=xdp_live_drop /s/ context=e2e / context=e2e_off_cpu /' \
	"$(only e2e-cpu-base.results "$E2E" xdp_live_drop)")
expect_ktap "-c: a scenario whose program saw packets on another CPU" 1 1 \
	'^not ok [0-9]+ xdp_live_drop context # context=e2e_off_cpu want=e2e$' \
	-c "$f"
f=$(variant e2e-path.results '/name=pktgen_veth_drop /s/ path=frag / path=cache /' \
	"$(only e2e-path-base.results "$E2E" pktgen_veth_drop)")
expect_ktap "-c: a scenario whose pages took another path" 1 1 \
	'^not ok [0-9]+ pktgen_veth_drop path # path=cache accepted=frag' -c "$f"
f=$(variant e2e-count.results '/name=pktgen_veth_drop /s/ total_invoke_count=15000 / total_invoke_count=14999 /' \
	"$(only e2e-count-base.results "$E2E" pktgen_veth_drop)")
expect_ktap "-c: a scenario that sent fewer packets than its repetitions" 1 1 \
	'^not ok [0-9]+ pktgen_veth_drop # ' -c "$f"
f=$(variant path.results '/name=tasklet_page_pool01_fast_path /s/ path=cache / path=ring /' \
	"$(only path-base.results "$ICOUNT" tasklet_page_pool01_fast_path)")
expect_ktap "-c: a path outside expect_path" 1 1 \
	'^not ok [0-9]+ tasklet_page_pool01_fast_path path # path=ring accepted=cache allocated=0 allocated_max=0$' \
	-c "$f"
f=$(variant either.results '/name=no-softirq-page_pool01 /s/ path=cache / path=ring /' \
	"$(only either-base.results "$ICOUNT" no-softirq-page_pool01)")
expect_ktap "-c: either path of a list (cache,ring) passes" 0 0 \
	'^ok [0-9]+ no-softirq-page_pool01 path # path=ring accepted=cache,ring' -c "$f"
f=$(variant nopp.results '/name=lock /s/ path=- / path=ring /' \
	"$(only nopp-base.results "$ICOUNT" lock)")
expect_ktap "-c: a test of no page_pool (expect_path=-) that saw one" 1 1 \
	'^not ok [0-9]+ lock path # path=ring accepted=-$' -c "$f"
f=$(variant allocated.results '/name=tasklet_page_pool02_ptr_ring /s/ pages_allocated=0 / pages_allocated=1 /' \
	"$(only allocated-base.results "$ICOUNT" tasklet_page_pool02_ptr_ring)")
expect_ktap "-c: a page from the allocator above expect_allocated_max" 1 1 \
	'^not ok [0-9]+ tasklet_page_pool02_ptr_ring path # path=ring accepted=ring allocated=1 allocated_max=0$' \
	-c "$f"
f=$(variant xcpu.results '/name=cross_cpu_page_pool01_return /s/ pages_allocated=0 / pages_allocated=320 /' \
	"$(only xcpu-base.results "$TCG" cross_cpu_page_pool01_return)")
expect_ktap "-c: the cross-CPU test at its computed bound passes" 0 0 \
	'^ok [0-9]+ cross_cpu_page_pool01_return path # path=ring accepted=ring allocated=320 allocated_max=320$' \
	-c "$f"
f=$(variant xcpu2.results '/name=cross_cpu_page_pool01_return /s/ pages_allocated=0 / pages_allocated=321 /' \
	"$(only xcpu2-base.results "$TCG" cross_cpu_page_pool01_return)")
expect_ktap "-c: the cross-CPU test above its computed bound" 1 1 \
	'^not ok [0-9]+ cross_cpu_page_pool01_return path # .* allocated=321 allocated_max=320$' \
	-c "$f"
f=$(variant released.results '/name=tasklet_page_pool03_slow /s/ pages_released=20000 / pages_released=19999 /' \
	"$(only released-base.results "$ICOUNT" tasklet_page_pool03_slow)")
expect_ktap "-c: a slow test that kept a page (pages_released != expect_released)" 1 1 \
	'^not ok [0-9]+ tasklet_page_pool03_slow path # path=allocator accepted=allocator released=19999 want_released=20000$' \
	-c "$f"
f=$(variant stats.results '/name=tasklet_page_pool01_fast_path /s/ recycle_ring=0 / recycle_ring=3 /' \
	"$(only stats-base.results "$ICOUNT" tasklet_page_pool01_fast_path)")
expect_ktap "-c: page_pool counters that disagree with expect_stats" 1 1 \
	'^not ok [0-9]+ tasklet_page_pool01_fast_path page_pool counters # recycle_cached=20000 recycle_ring=3 recycle_released_refcnt=0 want=recycle_cached:20000,recycle_ring:0,recycle_released_refcnt:0$' \
	-c "$f"
f=$(variant sum.results '/name=tasklet_page_pool02_ptr_ring /s/ recycle_ring_full=0 / recycle_ring_full=1 /' \
	"$(only sum-base.results "$ICOUNT" tasklet_page_pool02_ptr_ring)")
expect_ktap "-c: a sum of counters (recycle_ring+recycle_ring_full)" 1 1 \
	'^not ok [0-9]+ tasklet_page_pool02_ptr_ring page_pool counters # recycle_ring\+recycle_ring_full=20001 ' \
	-c "$f"
f=$(variant nocounter.results '/name=tasklet_page_pool08_frag /s/ alloc_fast=20000 / /' \
	"$(only nocounter-base.results "$ICOUNT" tasklet_page_pool08_frag)")
expect_ktap "-c: a counter expect_stats names that the line lacks" 1 1 \
	'^not ok [0-9]+ tasklet_page_pool08_frag page_pool counters # alloc_fast\+recycle_cached=none ' \
	-c "$f"
f=$(variant nostats.results 's/^page_pool_stats: yes/page_pool_stats: no/' \
	"$(only nostats-base.results "$ICOUNT" tasklet_page_pool01_fast_path)")
expect_ktap "-c: without CONFIG_PAGE_POOL_STATS the counters are skipped" 0 0 \
	'^ok [0-9]+ tasklet_page_pool01_fast_path page_pool counters # SKIP kernel without CONFIG_PAGE_POOL_STATS$' \
	-c "$f"
f=$(variant cpus.results '/^cpu: .* role=return /d' \
	"$(only cpus-base.results "$TCG" cross_cpu_page_pool01_return)")
expect_ktap "-c: a test of several CPUs without a returning one" 1 1 \
	'^not ok [0-9]+ cross_cpu_page_pool01_return cpus # alloc_cpus=1 return_cpus=0 allocated=355803 returned=0 total=355803$' \
	-c "$f"
# A test this kernel cannot run keeps the names of its checks, each a
# skip: its skip: line gives what its row has (the module's since
# December 2026: expect_path, cheaper_than, twin, cpus).
f=$(variant skip.results 's/^test: name=\(napi_page_pool03_skb_bound\) .*/skip: name=\1 run_flags_bit=16 wanted_context=napi expect_path=cache cheaper_than=- twin=- cpus=1 reason=needs a kernel with skb recycling/; s/^end: tests=20 skips=1/end: tests=19 skips=2/')
expect_ktap "-c: a test this kernel cannot run: its line a skip with the reason" 0 0 \
	'^ok [0-9]+ napi_page_pool03_skb_bound # SKIP needs a kernel with skb recycling$' \
	-c "$f"
grep -q '^ok [0-9]* napi_page_pool03_skb_bound page_pool counters # SKIP not run in this load: needs a kernel with skb recycling$' "$out"
ktap_test_result "-c: and each of its checks a skip under its name" test $? = 0
cp "$out" "$dir/skipped.ktap"
python3 "$TOP/tools/results/ktap-ci.py" names "$dir/ran.ktap" "$dir/skipped.ktap" \
	"$dir/tcg.ktap" >"$out" 2>&1; rc=$?
expect_file "stable names: a test that ran and the same skipped (NAPI, several CPUs) have the same checks" \
	0 '^113 check names, the same in 3 runs$'
f=$(variant silent.results 's/^test: name=\(napi_page_pool03_skb_bound\) .*/note: dropped/; s/^end: tests=2 skips=0/end: tests=1 skips=0/' \
	"$(only silent-base.results "$ICOUNT" for_loop napi_page_pool03_skb_bound)")
expect_ktap "-c: a selected test that did not report" 1 1 \
	'^not ok [0-9]+ napi_page_pool03_skb_bound # value=- ' -c "$f"
# The windows: a test whose chunks were measured again passes, one whose
# figure holds another task's work fails with the counts.
win='preemptible_chunks=0 retried_chunks=2 perturbed_chunks=0'
FOR_LOOP=$(only for_loop.results "$ICOUNT" for_loop)
f=$(variant window.results "/name=for_loop /s/ preemptible_chunks=0 retried_chunks=0 perturbed_chunks=0 / $win /" "$FOR_LOOP")
expect_ktap "-c: windows measured again, none kept perturbed: the window check passes" \
	0 0 '^ok [0-9]+ for_loop windows unperturbed # perturbed=0 chunks=2 retried=2 preemptible=0$' \
	-c "$f"
win='preemptible_chunks=2 retried_chunks=6 perturbed_chunks=1'
f=$(variant perturbed.results "/name=for_loop /s/ preemptible_chunks=0 retried_chunks=0 perturbed_chunks=0 / $win /" "$FOR_LOOP")
expect_ktap "-c: a window that held another task's work fails, with its count" \
	1 1 '^not ok [0-9]+ for_loop windows unperturbed # perturbed=1 chunks=2 retried=6 preemptible=2$' \
	-c "$f"
is "-c: and says that saved results cannot name the task" 1 \
	grep -c '^# which tasks ran is not known from saved results$' "$out"
# What entered the windows, by kind: the interrupts measured again are
# said in the directive of a pass; those a figure kept fail the test,
# named with them, and no task list unless a switch was among them.
win='preemptible_chunks=0 retried_chunks=3 perturbed_chunks=0 retried_entered=timer:3,softirq:3 perturbed_entered=-'
f=$(variant window-irq.results "/name=for_loop /s/ preemptible_chunks=0 retried_chunks=0 perturbed_chunks=0 / $win /" "$FOR_LOOP")
expect_ktap "-c: ticks measured again, none kept: the window check passes with what entered" \
	0 0 '^ok [0-9]+ for_loop windows unperturbed # perturbed=0 chunks=2 retried=3 preemptible=0 retried_entered=timer:3,softirq:3 perturbed_entered=-$' \
	-c "$f"
win='preemptible_chunks=0 retried_chunks=6 perturbed_chunks=2 retried_entered=irq:6,timer:6 perturbed_entered=irq:2,timer:2'
f=$(variant window-irq-kept.results "/name=for_loop /s/ preemptible_chunks=0 retried_chunks=0 perturbed_chunks=0 / $win /" "$FOR_LOOP")
expect_ktap "-c: interrupts in every try of a chunk kept in the figure: the check fails" \
	1 1 '^not ok [0-9]+ for_loop windows unperturbed # perturbed=2 chunks=2 retried=6 preemptible=0 retried_entered=irq:6,timer:6 perturbed_entered=irq:2,timer:2$' \
	-c "$f"
is "-c: and names the test and what entered its figure" 1 \
	grep -c '^# for_loop: 2 of 2 timed chunks in its figure held other work on each try: irq:2,timer:2$' "$out"
is "-c: no task list when no task entered" 0 \
	grep -c 'which tasks ran' "$out"
f=$(variant window-irq-bad.results "/name=for_loop /s/ perturbed_chunks=0 / perturbed_chunks=0 perturbed_entered=tick:1 /" "$FOR_LOOP")
expect_ktap "-c: what entered, of a kind the engine does not count: the file refused at its line" \
	1 1 "^# $f:$(grep -n '^test: name=for_loop ' "$f" | cut -d: -f1): test for_loop: perturbed_entered=tick:1 is not a list of kinds and counts" -c "$f"
f=$(variant window-none.results "/name=for_loop /s/ preemptible_chunks=0 retried_chunks=0 perturbed_chunks=0 / /" "$FOR_LOOP")
expect_ktap "-c: results without the window counts (a module before them): the check a skip under its name" \
	0 0 '^ok [0-9]+ for_loop windows unperturbed # SKIP results without window counts$' -c "$f"
f=$(variant window-bad.results "/name=for_loop /s/ perturbed_chunks=0 / perturbed_chunks=x /" "$FOR_LOOP")
expect_ktap "-c: a perturbed count that is no number: the file refused at its line" \
	1 1 "^# $f:$(grep -n '^test: name=for_loop ' "$f" | cut -d: -f1): test for_loop: perturbed_chunks=x is not a whole number\$" -c "$f"

# Twins: the same code in two contexts costs the same in instructions.
expect_ran "-c, instructions: a test within 0.5 of its twin passes" \
	0 0 '^ok [0-9]+ no-softirq-page_pool01 costs what tasklet_page_pool01_fast_path does # cost=75\.09 twin_cost=75\.00 margin=0\.5 unit=instructions$' \
	"$dir/ran.ktap" $ran_rc
TWINS=$(only twins.results "$ICOUNT" no-softirq-page_pool01 tasklet_page_pool01_fast_path)
f=$(variant twin-far.results "/name=no-softirq-page_pool01 /s/ cycles_min=75.09 / cycles_min=228.32 /" "$TWINS")
expect_ktap "-c, instructions: another task's work in one twin's windows fails (7.2, 228.32 against 75.00)" \
	1 1 '^not ok [0-9]+ no-softirq-page_pool01 costs what tasklet_page_pool01_fast_path does # cost=228\.32 twin_cost=75\.00 ' \
	-c "$f"
f=$(variant twin-path.results "/name=no-softirq-page_pool01 /s/ path=cache / path=ring /" "$TWINS")
expect_ktap "-c: twins that took different paths are a skip with the reason (6.1)" \
	0 0 '^ok [0-9]+ no-softirq-page_pool01 costs what .* # SKIP the two took different paths \(ring, cache\)$' \
	-c "$f"
expect_ran "-c, emulated cycles: the twin check is a skip, cycles do not resolve half an instruction" \
	0 0 ' # SKIP only instruction counts resolve 0\.5$' "$dir/tcg.ktap" $tcg_rc

f=$(variant relation.results '/name=tasklet_page_pool09_bulk /s/ cycles_min=159.37 / cycles_min=170.00 /' \
	"$(only relation-base.results "$ICOUNT" tasklet_page_pool09_bulk tasklet_page_pool02_ptr_ring)")
expect_ktap "-c, instructions: a relation that fails fails at once" 1 1 \
	'^not ok [0-9]+ tasklet_page_pool09_bulk cheaper than tasklet_page_pool02_ptr_ring # cheaper=170\.00 dearer=169\.92 unit=instructions stat=min$' \
	-c "$f"
# The TCG sample as it was measured (6.12): the fast path 185.77 cycles
# against the NAPI-aware return's 174.83 (75.00 against 87.16
# instructions on 7.2).
expect_ran "-c, emulated cycles: relations are skipped with the reason" 0 0 \
	'^ok [0-9]+ tasklet_page_pool01_fast_path cheaper than tasklet_page_pool04_napi_aware # SKIP emulated cycles do not rank paths$' \
	"$dir/tcg.ktap" $tcg_rc
f=$(variant kvmrel.results 's/^accel: tcg/accel: kvm/' \
	"$(only kvmrel-base.results "$TCG" tasklet_page_pool01_fast_path tasklet_page_pool04_napi_aware)")
expect_ktap "-c, CPU cycles (KVM): a failing relation fails, saved results are not re-measured" \
	1 1 '^not ok [0-9]+ tasklet_page_pool01_fast_path cheaper than tasklet_page_pool04_napi_aware # cheaper=185\.77 dearer=174\.83 unit=cycles stat=min$' \
	-c "$f"
grep -q '^# saved results are not measured again$' "$out"
ktap_test_result "-c, CPU cycles (KVM): and says so" test $? = 0
f=$(variant lockdep.results 's/prove_locking=n/prove_locking=y/; /name=tasklet_page_pool09_bulk /s/ cycles_min=159.37 / cycles_min=170.00 /' \
	"$(only lockdep-base.results "$ICOUNT" tasklet_page_pool09_bulk tasklet_page_pool02_ptr_ring)")
expect_ktap "-c: lock debugging skips the relations" 0 0 \
	'^ok [0-9]+ tasklet_page_pool09_bulk cheaper than tasklet_page_pool02_ptr_ring # SKIP lock debugging distorts relative costs$' \
	-c "$f"
rel=$(file relations "# inverted on purpose" \
	"tasklet_page_pool03_slow tasklet_page_pool01_fast_path" \
	"lock no_such_test")
expect_ktap "-c -r FILE: its relations instead; one between tests not run is a skip" \
	1 1 '^ok [0-9]+ lock cheaper than no_such_test # SKIP not both run in this load$' \
	-c -r "$rel" "$(only rel.results "$ICOUNT" tasklet_page_pool03_slow \
		tasklet_page_pool01_fast_path lock)"
grep -q '^not ok [0-9]* tasklet_page_pool03_slow cheaper than tasklet_page_pool01_fast_path # cheaper=4815.62 dearer=75.00 unit=instructions stat=min$' "$out"
ktap_test_result "-c -r FILE: the inverted relation fails" test $? = 0
lim=$(file limits "tasklet_page_pool01_fast_path 80  # fast path" \
	"tasklet_page_pool02_ptr_ring 169.5" "no_such_test 1")
expect_ktap "-c -t FILE: limits in instructions; one above fails; one of a test not run is a skip" \
	1 1 '^not ok [0-9]+ tasklet_page_pool02_ptr_ring median within limit # median=169\.92 limit=169\.5 unit=instructions$' \
	-c -t "$lim" "$(only lim.results "$ICOUNT" tasklet_page_pool01_fast_path \
		tasklet_page_pool02_ptr_ring)"
grep -q '^ok [0-9]* tasklet_page_pool01_fast_path median within limit # median=75.00 limit=80 unit=instructions$' "$out" &&
	grep -q '^ok [0-9]* no_such_test median within limit # SKIP not run in this load$' "$out"
ktap_test_result "-c -t FILE: the limit within, and the skip" test $? = 0
expect_ktap "-c -t FILE: limits on emulated cycles say cycles" 1 2 \
	'^not ok [0-9]+ tasklet_page_pool01_fast_path median within limit # median=185\.90 limit=80 unit=cycles$' \
	-c -t "$lim" "$(only lim-tcg.results "$TCG" \
		tasklet_page_pool01_fast_path tasklet_page_pool02_ptr_ring)"
expect_ktap "-c -b: a load against itself passes the gate at 0%" 0 0 \
	'^ok [0-9]+ for_loop within the gate # value=3\.00 baseline=3\.00 rise_pct=\+0\.00 margin_pct=0 unit=instructions$' \
	-c -b "$FOR_LOOP" -p 0 "$FOR_LOOP"
# A baseline made cheaper: every test 10% cheaper but the fast path
# only 4%: at 5% all but the fast path fail.
smaller=$(variant smaller.results '/^test:/{
	s/ cycles_min=\([0-9.]*\) / cycles_min=X\1 /
}' "$ICOUNT")
awk '/^test:/ {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^cycles_min=X/) {
			v = substr($i, 13)
			f = $2 == "name=tasklet_page_pool01_fast_path" ? 1.04 : 1.10
			$i = sprintf("cycles_min=%.2f", v / f)
		}
} 1' "$smaller" >"$smaller.new" && mv "$smaller.new" "$smaller"
expect_ktap "-c -b -p 5: a baseline made smaller fails every test that rose more than 5%" \
	1 19 '^not ok [0-9]+ tasklet_page_pool02_ptr_ring within the gate # value=169\.92 baseline=154\.47 rise_pct=\+10\.00 margin_pct=5 unit=instructions$' \
	-c -b "$smaller" -p 5 "$ICOUNT"
grep -q '^ok [0-9]* tasklet_page_pool01_fast_path within the gate # value=75.00 baseline=72.12 rise_pct=+3.99 margin_pct=5 unit=instructions$' "$out"
ktap_test_result "-c -b -p 5: the test that rose 4% passes" test $? = 0
grep -q '^ok [0-9]* baseline covers the tests run # in_baseline=20 run=20$' "$out"
ktap_test_result "-c -b: the gate says how many tests it compared" test $? = 0
nostats=$(variant nostats.results '/^test: name=no-softirq-page_pool01 /s/expect_stats=[^ ]*/expect_stats=,/' \
	"$(only nostats-base.results "$ICOUNT" no-softirq-page_pool01)")
expect_ktap "-c: an expect_stats naming no counter: the file refused at its line" 1 1 \
	"^# $nostats:[0-9]+: test no-softirq-page_pool01: expect_stats=, is not " -c "$nostats"
expect_ktap "-c -b: a test the baseline lacks is a skip" 0 0 \
	'^ok [0-9]+ lock within the gate # SKIP not in the baseline$' \
	-c -b "$FOR_LOOP" -p 1 "$(only lock-for_loop.results "$ICOUNT" lock for_loop)"
other=$(variant other.results 's/name=\([^ ]*\) /name=x\1 /; /^selected: /{s/^selected: /selected: x/; s/,/,x/g;}' "$FOR_LOOP")
expect_ktap "-c -b: a gate with no test in common with the baseline fails" 1 1 \
	'^not ok [0-9]+ baseline covers the tests run # in_baseline=0 run=1$' \
	-c -b "$other" -p 1 "$FOR_LOOP"
expect_ktap "-c FILE FILE: each file is a load, every check on each, one plan" \
	1 1 '^not ok [0-9]+ load 2: tasklet_page_pool01_fast_path path # path=ring' \
	-c "$(only fast_path.results "$ICOUNT" tasklet_page_pool01_fast_path)" \
		"$dir/path.results"
grep -q '^ok [0-9]* load 2: results file is whole # ' "$out" &&
	! grep -q '^not ok [0-9]* load 1: ' "$out"
ktap_test_result "-c FILE FILE: the first load passes, the second fails once" \
	test $? = 0
cat "$FOR_LOOP" "$FOR_LOOP" >"$dir/for_loop-twice.results"
expect_ktap "-c: each block of a file is a load, every check on each" \
	0 0 '^ok [0-9]+ load 2: results file is whole # ' -c "$dir/for_loop-twice.results"
grep -q "^# file: $dir/for_loop-twice.results, block 2 of 2\$" "$out"
ktap_test_result "-c: the block a load's lines are of, said before them" test $? = 0

# CI's view (doc/ci.rst): the same names on two instruments and loop
# counts, each figure its results file's, NIPA's rules reading each
# check with its result.
python3 "$TOP/tools/results/ktap-ci.py" names "$dir/ran.ktap" "$dir/tcg.ktap" >"$out" 2>&1; rc=$?
expect_file "stable names: instructions with loops=20000 and emulated cycles sized by time have the same 113" \
	0 '^113 check names, the same in 2 runs$'
python3 "$TOP/tools/results/ktap-ci.py" figures "$dir/ran.ktap" "$ICOUNT" >"$out" 2>&1; rc=$?
expect_file "figures: each test's value is its results file's cycles_min" \
	0 '^21 tests, 1 of them skips: each figure is its results file.s$'
sed 's/ value=75\.00 / value=75.01 /' "$dir/ran.ktap" >"$dir/off.ktap"
python3 "$TOP/tools/results/ktap-ci.py" figures "$dir/off.ktap" "$ICOUNT" >"$out" 2>&1; rc=$?
expect_file "figures: a value that is not the results file's is found" \
	1 'tasklet_page_pool01_fast_path: value=75\.01, its results file.s cycles_min=75\.00'
nest() {	# ktap-file exit-status: as run_kselftest.sh nests it
	printf '%s\n' "TAP version 13" "1..1" \
		"# timeout set to 300" "# selftests: net/bench: test_bench_page_pool.sh"
	sed 's/^/# /' "$1"
	case $2 in
	0) printf '%s\n' "ok 1 selftests: net/bench: test_bench_page_pool.sh" ;;
	4) printf '%s\n' "ok 1 selftests: net/bench: test_bench_page_pool.sh # SKIP" ;;
	*) printf '%s\n' "not ok 1 selftests: net/bench: test_bench_page_pool.sh # exit=$2" ;;
	esac
}
# Without the cross-CPU test (tests= leaves it out) nothing is skipped.
f=$(variant legacy.results '/^skip: name=cross_cpu_page_pool01_return /d; /^selected: /s/,cross_cpu_page_pool01_return$//; s/^end: tests=20 skips=1$/end: tests=20 skips=0/')
sh "$WRAPPER" -c "$f" >"$dir/all.ktap" 2>&1
nest "$dir/all.ktap" 0 >"$dir/nested"
python3 "$TOP/tools/results/ktap-ci.py" nipa "$dir/nested" 0 >"$out" 2>&1; rc=$?
expect_file "NIPA's rules: a run of nothing skipped is a pass, its 107 checks subtests that passed" \
	0 '^run pass$'
[ "$(grep -c '^subtest [^ ]* pass$' "$out")" = 107 ] &&
	grep -q '^subtest tasklet-page-pool01-fast-path pass$' "$out"
ktap_test_result "NIPA's rules: each check by its name" test $? = 0
nest "$dir/ran.ktap" 0 >"$dir/nested"
python3 "$TOP/tools/results/ktap-ci.py" nipa "$dir/nested" 0 >"$out" 2>&1; rc=$?
expect_file "NIPA's rules: a run with a check skipped is a skip, that subtest a skip" \
	0 '^subtest cross-cpu-page-pool01-return-cpus skip$'
grep -q '^run skip$' "$out"
ktap_test_result "NIPA's rules: the run, a skip" test $? = 0
f=$(variant limit.results '/name=lock /s/ path=- / path=ring /' \
	"$(only limit-base.results "$ICOUNT" lock)")
sh "$WRAPPER" -c "$f" >"$dir/failed.ktap" 2>&1
nest "$dir/failed.ktap" 1 >"$dir/nested"
python3 "$TOP/tools/results/ktap-ci.py" nipa "$dir/nested" 1 >"$out" 2>&1; rc=$?
expect_file "NIPA's rules: a failed check fails the run, its subtest not ok" \
	0 '^subtest lock-path fail$'
grep -q '^run fail$' "$out"
ktap_test_result "NIPA's rules: the run, a fail" test $? = 0

# Guests have busybox only: its sh, awk, sed, grep and tr must give the
# same KTAP as the host's tools, on a run with a failure and a skip.
if command -v busybox >/dev/null; then
	lim=$(file limits "tasklet_page_pool01_fast_path 79 # below")
	sh "$WRAPPER" -c -t "$lim" -b "$smaller" -p 5 "$ICOUNT" "$dir/skip.results" >"$dir/host.out" 2>&1
	PATH=$dir/busybox:$PATH busybox sh "$WRAPPER" -c -t "$lim" \
		-b "$smaller" -p 5 "$ICOUNT" "$dir/skip.results" >"$out" 2>&1
	cmp -s "$dir/host.out" "$out" && grep -q '^not ok' "$out" &&
		grep -q '# SKIP' "$out"
	ktap_test_result "busybox sh and awk give the host's KTAP" test $? = 0
	diff "$dir/host.out" "$out" | head -n 10 | sed 's/^/#   /'
else
	ktap_test_skip "busybox sh and awk give the host's KTAP" "no busybox"
fi

# The fast path's test and the skip of icount's, for the cases below.
ONE=$(only one.results "$ICOUNT" tasklet_page_pool01_fast_path \
	cross_cpu_page_pool01_return)
f=$(variant hash.results '/^skip: /s/ reason=/ reason=#x /' "$ONE")
expect_ktap "-c: a \"#\" from the results (a skip's reason) cannot start a second directive" 0 0 \
	'^ok [0-9]+ cross_cpu_page_pool01_return # SKIP \\x23x ' -c "$f"

# Data is written verbatim and printed escaped, under every shell: a
# path with backslash sequences (dash's echo would rewrite them) is the
# file that gets checked, in full; a newline in a path or a value read
# from the results cannot make a KTAP line of its own.  The files are
# the fast path's test and the skip of icount's: paths and values are
# the subject here, every check of a whole file under three shells is
# the busybox case's above.
mkdir "$dir/t\n" "$dir/nl
ok 99 forged" || exit 1
cp "$ONE" "$dir/r\t1.results" && cp "$ONE" "$dir/r\c.results" &&
	cp "$ONE" "$dir/nl
ok 99 forged/x.results" || exit 1
variant 'p\t.results' '/name=tasklet_page_pool01_fast_path /s/ path=cache / path=ring /' \
	"$ONE" >/dev/null
forged=$(variant forged.results '/^skip: /s/ reason=/ reason=x\\n\\0157\\0153\\0403\\040fake /' "$ONE")
glued=$(variant glued.results '/^skip: /s/ reason=.*/ reason=x\\c/' "$ONE")
for UNDER in sh bash busybox; do
	if [ $UNDER = busybox ] && ! command -v busybox >/dev/null; then
		ktap_test_skip "$UNDER: hostile paths and values" "no busybox"
		continue
	fi
	expect_ktap "$UNDER: results paths with \\t and \\c are read, each file's every check" \
		0 0 '^# file: .*/r\\x5cc\.results$' \
		-c "$dir/r\t1.results" "$dir/r\c.results"
	expect_ktap "$UNDER: the check of a failing file at a \\t path fails" \
		1 1 '^not ok [0-9]+ tasklet_page_pool01_fast_path path # path=ring' \
		-c "$dir/p\t.results"
	export TMPDIR="$dir/t\n"
	expect_ktap "$UNDER: a TMPDIR with \\n, and a newline in a path stays in one KTAP line" 0 0 \
		'^# file: .*/nl\\x0aok 99 forged/x\.results$' \
		-c "$dir/nl
ok 99 forged/x.results"
	unset TMPDIR
	expect_ktap "$UNDER: a value cannot forge a KTAP line, nor glue the next to its own" 0 0 \
		'^ok [0-9]+ load 1: cross_cpu_page_pool01_return # SKIP x\\x5cn\\x5c0157\\x5c0153\\x5c0403\\x5c040fake ' \
		-c "$forged" "$glued"
	grep -q '^ok [0-9]* load 2: cross_cpu_page_pool01_return # SKIP x\\x5cc$' "$out"
	ktap_test_result "$UNDER: the glued value's line" test $? = 0
done
UNDER=sh
