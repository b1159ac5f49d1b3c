# SPDX-License-Identifier: GPL-2.0
#
# make track's comparisons and report, sourced by tools/track/track.sh.
# POSIX sh, jq and awk.  A run's OUT folder holds:
#   range, shard        what was asked
#   commits.tsv         INDEX, ID and SUBJECT of the base (0) and every
#                       commit of the range, tab-separated
#   measure, own        the indexes this run measured, and those whose
#                       comparison it reports (a shard's own commits)
#   NN-ID/              per commit measured: status ("ok" or why not),
#                       load-NN.results, and against the nearest
#                       earlier commit measured: parent (its index),
#                       compare.json and compare.txt (bench-compare)
#   series.tsv, title   of an MBOX= series: INDEX, LABEL ("2/5") and
#                       SUBJECT of each patch; the cover letter's subject
#   measured.txt        what was measured, a sentence for the reply
#   track.json, track.txt, track.svg   the report (track_report)
#   reply.txt           the table for a review on the list (track_reply)
#   kcidb.json          the commits measured as KernelCI's KCIDB
#                       document (track_kcidb, doc/ci.rst)
#
#   track_compare_all OUT       each commit measured against its parent
#   track_report OUT DIR...     the report of the commits DIR... own:
#                               one run's (a shard's, its own commits), or
#                               with TRACK_MERGE=1 the shards' of one
#                               range, which must own every commit

# The folder of commit INDEX in DIR, if it was measured there.
track_dir_of() {	# dir index
	set -- "$1"/"$(printf '%02d' "$2")"-*
	[ -d "$1" ] && printf '%s\n' "$1"
}

track_compare_all() {	# out
	c_parent=
	for c_i in $(cat "$1/measure"); do
		c_dir=$(track_dir_of "$1" "$c_i") || continue
		[ "$(cat "$c_dir/status")" = ok ] || continue
		if [ -n "$c_parent" ]; then
			c_pdir=$(track_dir_of "$1" "$c_parent")
			printf '%s\n' "$c_parent" >"$c_dir/parent"
			"$COMPARE" ${ALPHA:+--alpha "$ALPHA"} -f json \
				"$c_pdir"/load-*.results -- "$c_dir"/load-*.results \
				>"$c_dir/compare.json" 2>"$c_dir/compare.err" &&
			"$COMPARE" ${ALPHA:+--alpha "$ALPHA"} \
				"$c_pdir"/load-*.results -- "$c_dir"/load-*.results \
				>"$c_dir/compare.txt" 2>>"$c_dir/compare.err" ||
				die "bench-compare of $c_dir against $c_pdir failed: $(head -n 1 "$c_dir/compare.err")"
		fi
		c_parent=$c_i
	done
}

# track.json of the commits of the folders given, into OUT: the first
# folder's range, each commit from the folder that owns it.
track_json() {	# out dir...
	j_out=$1
	shift
	j_commits=$1/commits.tsv
	[ -f "$j_commits" ] || usage_die "$1: not an OUT folder of make track (no commits.tsv)"
	for j_d in "$@"; do
		cmp -s "$j_commits" "$j_d/commits.tsv" ||
			usage_die "$j_d: another range than $1's (commits.tsv differs): merge the shards of one range"
	done
	j_last=$(($(wc -l <"$j_commits") - 1))
	# per commit a line: INDEX, the folder that owns it (or "-"); a
	# shard's own run reports its own commits only
	j_i=1
	while [ $j_i -le $j_last ]; do
		j_owner=-
		for j_d in "$@"; do
			grep -qx "$j_i" "$j_d/own" 2>/dev/null || continue
			j_owner=$(track_dir_of "$j_d" $j_i) && break
			j_owner=-
		done
		[ "$j_owner" != - ] || [ "${TRACK_MERGE:-}" = 1 ] ||
			{ j_i=$((j_i + 1)); continue; }
		printf '%s\t%s\n' $j_i "$j_owner"
		j_i=$((j_i + 1))
	done >"$j_out/owners.tsv"
	j_missing=$(awk -F '\t' '$2 == "-" { printf " %s", $1 }' "$j_out/owners.tsv")
	[ -z "$j_missing" ] ||
		usage_die "no folder given measured commit(s)$j_missing of the range: give every shard's OUT"
	{
		printf '{"range": %s}\n' \
			"$(jq -Rs . <"$1/range")"
		while IFS="$(printf '\t')" read -r j_i j_dir; do
			j_parent=null
			[ -f "$j_dir/parent" ] && j_parent=$(cat "$j_dir/parent")
			j_cmp=null
			[ -f "$j_dir/compare.json" ] && j_cmp=$(cat "$j_dir/compare.json")
			jq -n --argjson i "$j_i" --arg status "$(cat "$j_dir/status")" \
				--argjson parent "$j_parent" --argjson cmp "$j_cmp" \
				'{index: $i, status: $status, parent: $parent, cmp: $cmp}'
		done <"$j_out/owners.tsv"
	} | jq -s --rawfile tsv "$j_commits" '
	($tsv | split("\n") | map(select(length > 0) | split("\t"))
	 | map({index: (.[0] | tonumber), id: .[1], subject: .[2]})) as $all
	| .[0].range as $range | .[1:] as $got
	| {format: "bench-track 1", range: ($range | rtrimstr("\n")),
	   clock: ([$got[] | .cmp.settings.clock // empty] | first // null),
	   base: {id: $all[0].id, subject: $all[0].subject},
	   commits: [$got[] | . as $c | $all[$c.index] + {
		status: $c.status,
		parent: (if $c.parent == null then null else $all[$c.parent].id end),
		loads: (if $c.cmp == null then null else $c.cmp.loads end),
		rows: (if $c.cmp == null then [] else $c.cmp.rows end)}]}
	' >"$j_out/track.json" || die "cannot write $j_out/track.json"
}

# What the table and the reply show, from track.json, a line each:
# "clock", "base", per commit "commit INDEX ID STATUS PARENT SUBJECT"
# (PARENT when it is not the commit before), per test "row TEST BASE
# CELL...", and "moved" per function that moved under a change.
# shellcheck disable=SC2016 # jq's own $names
TRACK_CELLS_JQ='
	($tsv | split("\n") | map(select(length > 0) | split("\t")[1])) as $ids
	| .clock as $clock
	| .base.id as $base
	| ([.commits[] | .rows[] | .test] | reduce .[] as $t ([]; if index([$t]) then . else . + [$t] end)) as $tests
	| "clock\t\($clock // "instructions")",
	  "base\t\(.base.id[0:12])\t\(.base.subject)",
	  (.commits[] | "commit\t\(.index)\t\(.id[0:12])\t\(.status)\t\(if .parent != null and .parent != $ids[.index - 1] then .parent[0:12] else "" end)\t\(.subject)"),
	  ($tests[] as $t | "row\t\($t)\t" + ([.commits[] | select(.parent == $base) | (.rows[] | select(.test == $t)) as $r
		| ($r[$clock].before // "")] | first // "" | tostring)
		+ "\t" + ([.commits[] | [(.rows[] | select(.test == $t))] as $m
		| if .status != "ok" then "x"
		  elif ($m | length) == 0 then "-"
		  elif $m[0].verdict == "change" then ($m[0][$clock].diff | tostring)
		  elif $m[0].verdict == "noise" then "."
		  else "?" end] | join("\t"))),
	  (.commits[] | .index as $i | .rows[] | select(.verdict == "change")
		| .test as $t | (.profile.moved // [])[]
		| "moved\t\($i)\t\($t)\t\(.function)\t\(.counts.insns.diff)\t\(.counts.loads.diff)\t\(.counts.stores.diff)\t\(.counts.atomics.diff)\t\(.counts.l1d_miss.diff // 0)")
'

# The table: a row per test, the base's value (where a commit was
# compared with the base), then per commit its shift against its parent
# where bench-compare says "change", "." for noise; the commits and what
# moved under it, and the parent of a commit compared with another than
# the one before it (COMMITS is the range's commits.tsv).
track_table() {	# track.json commits
	jq -r --rawfile tsv "$2" "$TRACK_CELLS_JQ" "$1" | awk -F '\t' "$TRACK_MOVED_AWK"'
	function signed(x) { return sprintf("%+.3f", x) }
	$1 == "clock" { clock = $2; next }
	$1 == "base" { base = $2; bsubj = $3; next }
	$1 == "commit" {
		n++; id[n] = $3; status[n] = $4; parent[n] = $5; subj[n] = $6
		idx[n] = $2; next
	}
	$1 == "row" {
		r++; test[r] = $2; bval[r] = $3
		for (c = 1; c <= n; c++) cell[r, c] = $(3 + c)
		next
	}
	$1 == "moved" {
		m++; mline[m] = "    " $3 ": " moved_text($4, $5, $6, $7, $8, $9)
		mof[m] = $2
		next
	}
	END {
		w = 4
		for (i = 1; i <= r; i++) if (length(test[i]) > w) w = length(test[i])
		printf "%-" w "s  %14s", "test (" clock " per element)", "base " substr(base, 1, 7)
		for (c = 1; c <= n; c++) printf "  %10s", "[" idx[c] "] " substr(id[c], 1, 7)
		printf "\n"
		for (i = 1; i <= r; i++) {
			printf "%-" w "s  %14s", test[i], bval[i] == "" ? "-" : sprintf("%.3f", bval[i])
			for (c = 1; c <= n; c++) {
				v = cell[i, c]
				if (v == ".") s = "."
				else if (v == "x") s = "-"
				else if (v == "-" || v == "?") s = v
				else s = signed(v)
				printf "  %10s", s
			}
			printf "\n"
		}
		printf "\ncells: the shift against the parent, as bench-compare estimates it over the whole window, where it says change; \".\" noise; \"-\" not measured; \"?\" no verdict\n"
		printf "base %s %s\n", substr(base, 1, 12), bsubj
		for (c = 1; c <= n; c++) {
			printf "[%s] %s %s", idx[c], id[c], subj[c]
			if (status[c] != "ok") printf "\n    %s", status[c]
			else if (parent[c] != "")
				printf "\n    compared with %s, the nearest earlier commit measured", parent[c]
			printf "\n"
			for (k = 1; k <= m; k++) if (mof[k] == idx[c]) print mline[k]
		}
	}'
}

# The reply a reviewer pastes into a mail to the list (OUT/reply.txt):
# ASCII, no line over 80 columns, no tab; the table split into groups
# of patches that fit, the rows where some patch changed something (the
# others named after it), the patches numbered as the series numbers
# them (SERIES: INDEX, LABEL and SUBJECT lines; "[INDEX]" without it),
# with the functions that moved; what was measured (MEASURED: a line of
# text each).  Text from the series is made ASCII ("?" for any other
# byte) and wrapped.
track_reply() {	# track.json commits series|- measured|- title
	jq -r --rawfile tsv "$2" "$TRACK_CELLS_JQ" "$1" | SERIES=$3 MEASURED=$4 TITLE=$5 LC_ALL=C awk -F '\t' \
		"$TRACK_MOVED_AWK"'
	function ascii(s) { gsub(/[^ -~]/, "?", s); return s }
	function signed(x) { return sprintf("%+.3f", x) }
	# TEXT in lines of at most 80 columns, the first after FIRST, the
	# others after an indent of IND blanks
	function wrap(first, text, ind,    out, line, n, i, w, pad) {
		pad = sprintf("%" ind "s", "")
		line = first
		n = split(ascii(text), w, " ")
		for (i = 1; i <= n; i++) {
			if (w[i] == "")
				continue
			if (line != "" && line !~ / $/ && length(line) + 1 + length(w[i]) > 80) {
				print line
				line = pad
			}
			# a word longer than a line goes on in the next
			while (length(w[i]) > 80 - length(line)) {
				print line substr(w[i], 1, 80 - length(line))
				w[i] = substr(w[i], 81 - length(line))
				line = pad
			}
			line = line (line == "" || line ~ / $/ ? "" : " ") w[i]
		}
		if (line != "" && line != pad)
			print line
	}
	function cell(v) {
		if (v == ".") return "."
		if (v == "x") return "-"
		if (v == "-" || v == "?") return v
		return signed(v)
	}
	BEGIN {
		if (ENVIRON["SERIES"] != "-")
			while ((getline l < ENVIRON["SERIES"]) > 0) {
				split(l, f, "\t")
				lab[f[1]] = f[2]
			}
		if (ENVIRON["MEASURED"] != "-")
			while ((getline l < ENVIRON["MEASURED"]) > 0)
				meas[++nmeas] = l
	}
	$1 == "clock" { clock = $2; next }
	$1 == "base" { base = $2; bsubj = $3; next }
	$1 == "commit" {
		n++; idx[n] = $2; id[n] = $3; status[n] = $4; subj[n] = $6
		label[n] = ($2 in lab) ? lab[$2] : "[" $2 "]"
		next
	}
	$1 == "row" {
		r++; test[r] = $2; bval[r] = $3; quiet[r] = 1
		for (c = 1; c <= n; c++) {
			cellv[r, c] = cell($(3 + c))
			if (cellv[r, c] != ".") quiet[r] = 0
		}
		next
	}
	$1 == "moved" {
		m++; mof[m] = $2
		mtext[m] = $3 ": " moved_text($4, $5, $6, $7, $8, $9)
		next
	}
	END {
		unit = clock == "instructions" ? "Instructions" : "Cycles"
		wrap("", "make track of " (ENVIRON["TITLE"] == "" ? "the range" : ENVIRON["TITLE"]) ":", 4)
		wrap("", unit " per element of the bench_page_pool tests" \
		     (clock == "instructions" ? ", counted exactly (QEMU -icount)," : ",") \
		     " on the base and after each patch: a figure is the change" \
		     " bench-compare found against the patch before, \".\" noise," \
		     " \"-\" not measured, \"?\" no verdict.", 0)
		w = 4
		for (i = 1; i <= r; i++)
			if (!quiet[i] && length(test[i]) > w) w = length(test[i])
		per = int((80 - w - 10) / 10)
		if (per < 1) per = 1
		shown = 0
		for (i = 1; i <= r; i++) if (!quiet[i]) shown++
		for (g = 1; shown && g <= n; g += per) {
			printf "\n%-" w "s %9s", "", g == 1 ? "base" : ""
			for (c = g; c < g + per && c <= n; c++)
				printf " %9s", substr(ascii(label[c]), 1, 9)
			printf "\n"
			for (i = 1; i <= r; i++) {
				if (quiet[i]) continue
				printf "%-" w "s %9s", substr(test[i], 1, w),
				       (g > 1 ? "" : bval[i] == "" ? "-" : \
					sprintf("%.3f", bval[i]))
				for (c = g; c < g + per && c <= n; c++)
					printf " %9s", cellv[i, c]
				printf "\n"
			}
		}
		q = ""
		for (i = 1; i <= r; i++) if (quiet[i]) q = q (q == "" ? "" : ", ") test[i]
		if (q != "") {
			print ""
			wrap("", (shown ? "No patch changed the others: " : "No patch changed any test: ") q ".", 2)
		}
		print ""
		wrap("", "base " base " " bsubj, 4)
		for (c = 1; c <= n; c++) {
			wrap("", label[c] " " subj[c], 4)
			if (status[c] != "ok") wrap("    ", status[c], 6)
			for (k = 1; k <= m; k++)
				if (mof[k] == idx[c]) wrap("    ", mtext[k], 6)
		}
		if (nmeas) {
			print ""
			for (k = 1; k <= nmeas; k++) wrap("", meas[k], 2)
		}
	}'
}

# A picture: each row's value per commit (the base, then each commit's
# median), one small chart a row, as SVG.  Names are escaped for XML.
track_svg() {	# track.json
	jq -r '
	.clock as $clock
	| ([.commits[] | .rows[] | .test] | reduce .[] as $t ([]; if index([$t]) then . else . + [$t] end)) as $tests
	| "clock\t\($clock // "instructions")\t\(.commits | length)\t\([.commits[] | .index] | join(","))",
	  ($tests[] as $t | "row\t\($t)\t" + ([(.commits[] | (.rows[] | select(.test == $t)) | .[$clock].before)] | first // "" | tostring)
		+ "\t" + ([.commits[] | [(.rows[] | select(.test == $t))] as $m
		| if ($m | length) == 0 or .status != "ok" then "" else ($m[0][$clock].after | tostring) end] | join("\t")))
	' "$1" | awk -F '\t' '
	function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
	$1 == "clock" { clock = $2; n = $3; split($4, idx, ","); next }
	$1 == "row" { r++; name[r] = $2; for (c = 0; c <= n; c++) val[r, c] = $(3 + c) }
	END {
		pw = 640; ph = 115; top = 30
		printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", pw, top + r * ph
		printf "<text x=\"10\" y=\"18\" font-size=\"13\">%s per element, base and each commit (make track)</text>\n", esc(clock)
		for (i = 1; i <= r; i++) {
			y0 = top + (i - 1) * ph; lo = ""; hi = ""
			for (c = 0; c <= n; c++) if (val[i, c] != "") {
				v = val[i, c] + 0
				if (lo == "" || v < lo) lo = v
				if (hi == "" || v > hi) hi = v
			}
			printf "<text x=\"10\" y=\"%d\">%s</text>\n", y0 + 12, esc(name[i])
			if (lo == "") continue
			printf "<text x=\"10\" y=\"%d\" fill=\"#555\">%.3f .. %.3f</text>\n", y0 + 26, lo, hi
			# at least one unit high: noise of hundredths stays flat
			span = hi - lo
			if (span < 1) {
				lo = (lo + hi) / 2 - 0.5
				span = 1
			}
			for (c = 0; c <= n; c++)
				printf "<text x=\"%.1f\" y=\"%d\" fill=\"#555\" text-anchor=\"middle\" font-size=\"9\">%s</text>\n", 200 + (n ? c * 420 / n : 0), y0 + 104, c ? "[" idx[c] "]" : "base"
			pts = ""
			for (c = 0; c <= n; c++) {
				x = 200 + (n ? c * 420 / n : 0)
				if (val[i, c] == "") { if (pts != "") printf "<polyline fill=\"none\" stroke=\"#36c\" points=\"%s\"/>\n", pts; pts = ""; continue }
				y = y0 + 90 - (val[i, c] - lo) * 70 / span
				pts = pts sprintf("%.1f,%.1f ", x, y)
				printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#36c\"><title>%s</title></circle>\n", x, y, (c ? "[" idx[c] "] " : "base ") val[i, c]
			}
			if (pts != "") printf "<polyline fill=\"none\" stroke=\"#36c\" points=\"%s\"/>\n", pts
		}
		print "</svg>"
	}'
}

# kcidb.json of the commits of OUT/owners.tsv and the base: a KCIDB
# document (schema v5.3) of one checkout per commit measured
# (git_commit_hash, git_commit_name its subject as the table gives it),
# its build and its tests, bench-compare -f kcidb of its loads, ids
# starting with ORIGIN.  DIR is the first folder (the base's).
track_kcidb() {	# out dir
	{
		printf '0\t%s\n' "$(track_dir_of "$2" 0)"
		cat "$1/owners.tsv"
	} >"$1/kcidb.commits" || die "cannot write $1/kcidb.commits"
	# a loop of this shell, not of a pipe's: a failure ends the run
	: >"$1/kcidb.parts"
	while IFS="$(printf '\t')" read -r k_i k_dir; do
		[ -n "$k_dir" ] && [ "$(cat "$k_dir/status")" = ok ] &&
			[ -n "$(find "$k_dir" -maxdepth 1 -name 'load-*.results')" ] ||
			continue
		k_line=$(sed -n "$((k_i + 1))p" "$2/commits.tsv")
		k_id=$(printf '%s\n' "$k_line" | cut -f2)
		k_subject=$(printf '%s\n' "$k_line" | cut -f3-)
		"$COMPARE" -f kcidb --origin "${ORIGIN:-bench_page_pool}" \
			--commit "$k_id" --commit-name "$k_subject" \
			"$k_dir"/load-*.results >>"$1/kcidb.parts" ||
			die "bench-compare -f kcidb of $k_dir failed"
	done <"$1/kcidb.commits"
	jq -s '{version: {major: 5, minor: 3},
		checkouts: [.[].checkouts[]], builds: [.[].builds[]],
		tests: [.[].tests[]]}' "$1/kcidb.parts" >"$1/kcidb.json" ||
		die "cannot write $1/kcidb.json"
	rm -f "$1/kcidb.commits" "$1/kcidb.parts"
}

# The report of DIR... into OUT: track.json, track.txt, track.svg,
# kcidb.json; the table on stdout.  Exit 1 when a commit did not build or boot, a load's
# windows held another task's work, or the FAIL_ABOVE gate failed.
track_report() {	# out dir...
	r_out=$1
	shift
	track_json "$r_out" "$@"
	track_table "$r_out/track.json" "$1/commits.tsv" >"$r_out/track.txt" ||
		die "cannot write $r_out/track.txt"
	track_svg "$r_out/track.json" >"$r_out/track.svg" ||
		die "cannot write $r_out/track.svg"
	track_kcidb "$r_out" "$1"
	r_title=
	[ ! -f "$1/title" ] || r_title=$(cat "$1/title")
	r_series=-
	[ ! -f "$1/series.tsv" ] || r_series=$1/series.tsv
	r_measured=-
	[ ! -f "$1/measured.txt" ] || r_measured=$1/measured.txt
	track_reply "$r_out/track.json" "$1/commits.tsv" "$r_series" \
		"$r_measured" "$r_title" >"$r_out/reply.txt" ||
		die "cannot write $r_out/reply.txt"
	cat "$r_out/track.txt"
	r_rc=0
	r_bad=$(jq -r '.commits[] | select(.status != "ok") | "[\(.index)] \(.id[0:12]): \(.status)"' \
		"$r_out/track.json")
	if [ -n "$r_bad" ]; then
		say "commits that were not measured:"
		printf '%s\n' "$r_bad" | track_printable >&2
		r_rc=1
	fi
	r_pert=$(while IFS="$(printf '\t')" read -r r_i r_dir; do
			set -- "$r_dir"/load-*.results
			[ -f "$1" ] || continue
			perturbed_loads "$@" | sed "s/^ /[$r_i]/"
		 done <"$r_out/owners.tsv")
	if [ -n "$r_pert" ]; then
		say "error: timed windows that held another task's work (perturbed_chunks):"
		printf '%s\n' "$r_pert" >&2
		r_rc=1
	fi
	[ -z "${FAIL_ABOVE:-}" ] || track_gate "$r_out/track.json" || r_rc=1
	say "OUT: $r_out (track.txt, reply.txt, track.json, track.svg, kcidb.json, every load's results)"
	return $r_rc
}

# FAIL_ABOVE, as bench-compare --fail-above judges one comparison: 1,
# naming the first commit and row slower by more than FAIL_ABOVE% with
# a "change" verdict, or a commit none of whose rows could be judged (a
# gate that checked nothing must not pass).
track_gate() {	# track.json
	g_found=$(jq -r --argjson p "$FAIL_ABOVE" '
	.clock as $clock
	| ([.commits[] | . as $c | .rows[]
	    | select(.verdict == "change" and .pct_change != null and .pct_change > $p)
	    | "[\($c.index)] \($c.id[0:12]) \($c.subject): \(.test) \(.pct_change)% (\(.[$clock].before) -> \(.[$clock].after) \($clock))"]
	   | first // empty | "slower\t" + .),
	  (.commits[] | select(.status == "ok" and .parent != null)
	   | select([.rows[] | select(.verdict != "n/a" and .pct_change != null)] | length == 0)
	   | "unjudged\t[\(.index)] \(.id[0:12]) \(.subject): no row could be judged (every row n/a: too few loads, or no % change)")
	' "$1") || die "cannot read $1"
	[ -n "$g_found" ] || return 0
	if printf '%s\n' "$g_found" | grep -q '^slower'; then
		say "FAIL_ABOVE=$FAIL_ABOVE: the first commit slower by more than $FAIL_ABOVE% with a change verdict:"
		printf '%s\n' "$g_found" | sed -n 's/^slower\t//p' >&2
	fi
	printf '%s\n' "$g_found" |
		sed -n "s/^unjudged\t/FAIL_ABOVE=$FAIL_ABOVE: /p" >&2
	return 1
}
