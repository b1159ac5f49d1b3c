# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# make track MBOX=FILE: a series as it was posted, read from a mailbox
# (git format-patch's files, b4 am's mbox, a thread saved from a mail
# client), applied with git am in make track's own clone of TREE, never
# in the developer's tree; sourced by tools/track/track.sh after
# track-lib.sh.  POSIX sh, git and awk.
#
# What comes from a list is hostile: the file is read up to
# TRACK_MBOX_MAX bytes and refused if it holds a NUL byte; git mailsplit
# splits it (dropping the CR of CRLF lines, as mailers add them) and
# git mailinfo decodes each mail's headers (RFC 2047 subjects to UTF-8);
# nothing in it is run.  The patches are the mails whose subject tags
# them "[... PATCH ... N/M]" (or "[PATCH]", one patch), replies and
# other mails aside; of several versions ("v2") the newest, said; each
# of 1..M once.  The base: BASE=, else the base-commit: trailer git
# format-patch --base and b4 write, else a refusal that asks for it.
#
#   track_mbox MBOX DIR    reads and applies the series, in DIR's
#                          scratch files: TM_BASE and TM_HEAD (commits
#                          of our clone), TM_TITLE (the cover letter's
#                          subject, or the first patch's), DIR/series.tsv
#                          (INDEX, LABEL "N/M" and SUBJECT of each patch);
#                          one line and exit 2 when refused, the clone
#                          back on the base

TRACK_MBOX_MAX=$((16 * 1024 * 1024))

# A mail's subject as the series names it: "[PATCH v2 3/5] subject".
track_mbox_label() {	# version n m subject
	tm_v=
	[ "$1" = 1 ] || tm_v="v$1 "
	printf '[PATCH %s%s/%s] %s' "$tm_v" "$2" "$3" "$4"
}

# Each mail of DIR/mails: FILE, VERSION, N, M, whether it has a patch,
# and its subject without its tags, tab-separated; mails that are no
# patch of a series (replies, other mail) left out.
track_mbox_index() {	# dir
	# git mailsplit names the mails 0001, 0002...; the callers run
	# with globbing off
	ls "$1/mails" | grep -x '[0-9][0-9]*' | while read -r tm_name; do
		tm_mail=$1/mails/$tm_name
		git mailinfo -k "$tm_mail.msg" "$tm_mail.patch" <"$tm_mail" \
			>"$tm_mail.info" 2>/dev/null || continue
		tm_has=0
		[ ! -s "$tm_mail.patch" ] || tm_has=1
		sed -n 's/^Subject: //p' "$tm_mail.info" | head -n 1 |
			LC_ALL=C tr '\t\000-\010\013-\037\177' ' ?' |
			T_MAIL=$tm_mail T_HAS=$tm_has LC_ALL=C awk '
		{
			s = $0
			if (s ~ /^[ ]*([Rr][Ee]|[Aa][Ww]|[Ff][Ww][Dd]?):/)
				exit
			v = 1; n = ""; m = ""; tagged = 0
			while (match(s, /^[ ]*\[[^]]*\]/)) {
				grp = substr(s, RSTART, RLENGTH)
				s = substr(s, RSTART + RLENGTH)
				gsub(/[][]/, " ", grp)
				k = split(grp, w, " ")
				patch = 0
				for (i = 1; i <= k; i++)
					if (w[i] == "PATCH")
						patch = 1
				if (!patch)
					continue
				tagged = 1
				for (i = 1; i <= k; i++) {
					if (w[i] ~ /^[vV][0-9]+$/ && length(w[i]) <= 4)
						v = substr(w[i], 2) + 0
					else if (w[i] ~ /^[0-9]+\/[0-9]+$/ &&
						 length(w[i]) <= 9) {
						split(w[i], nm, "/")
						n = nm[1] + 0
						m = nm[2] + 0
					}
				}
			}
			if (!tagged)
				exit
			if (n == "") {
				n = 1
				m = 1
			}
			sub(/^[ ]+/, "", s)
			printf "%s\t%d\t%d\t%d\t%d\t%s\n", ENVIRON["T_MAIL"], v,
				n, m, ENVIRON["T_HAS"], substr(s, 1, 200)
		}'
	done
}

# git am in make track's clone, as a committer of its own: git am and
# its --abort want one, and a user may have none configured.
track_am() {	# git-am-argument...
	GIT_COMMITTER_NAME="make track" GIT_COMMITTER_EMAIL="track@localhost" \
		git -C "$TRACK_SRC" am "$@"
}

track_mbox() {	# mbox dir
	tm_box=$1 tm_dir=$2
	[ -f "$tm_box" ] || [ -c "$tm_box" ] ||
		usage_die "MBOX=$tm_box: no such file"
	mkdir -p "$tm_dir/mails" || die "cannot create $tm_dir/mails"
	head -c $((TRACK_MBOX_MAX + 1)) -- "$tm_box" >"$tm_dir/series.mbox" \
		2>/dev/null || usage_die "MBOX=$tm_box: cannot read it"
	[ "$(wc -c <"$tm_dir/series.mbox")" -le $TRACK_MBOX_MAX ] ||
		usage_die "MBOX=$tm_box: more than $((TRACK_MBOX_MAX >> 20)) MiB: no mailbox of one series"
	tm_nul=$(LC_ALL=C grep -a -n -m 1 -P '\x00' "$tm_dir/series.mbox" |
		cut -d: -f1)
	[ -z "$tm_nul" ] ||
		usage_die "MBOX=$tm_box:$tm_nul: a NUL byte: a binary file, no mailbox"
	git mailsplit -o"$tm_dir/mails" "$tm_dir/series.mbox" >/dev/null \
		2>"$tm_dir/mailsplit.err" ||
		usage_die "MBOX=$tm_box: no mailbox (git mailsplit: $(head -n 1 "$tm_dir/mailsplit.err" | track_printable))"
	track_mbox_index "$tm_dir" >"$tm_dir/index.tsv"
	# the newest version's patches, each of 1..M once
	tm_v=$(awk -F '\t' '$3 > 0 && $5 { print $2 }' "$tm_dir/index.tsv" |
		sort -n | tail -n 1)
	[ -n "$tm_v" ] ||
		usage_die "MBOX=$tm_box: no patch in it (no mail whose subject is tagged [PATCH] with a diff)"
	tm_versions=$(awk -F '\t' '$3 > 0 && $5 { print "v" $2 }' \
		"$tm_dir/index.tsv" | sort -u | tr '\n' ' ')
	[ "$tm_versions" = "v$tm_v " ] ||
		say "MBOX=$tm_box holds ${tm_versions% } of the series: v$tm_v is measured"
	awk -F '\t' -v v="$tm_v" '$2 == v' "$tm_dir/index.tsv" |
		sort -t "$(printf '\t')" -k3,3n >"$tm_dir/version.tsv"
	tm_why=$(awk -F '\t' '
	function label(n) {
		return "[PATCH " (v > 1 ? "v" v " " : "") n "/" m "]"
	}
	function bad(why) { print why; found = 1; exit }
	NR == 1 { v = $2; m = $4 }
	$4 != m { bad("its patches say " m " and " $4 " patches") }
	$3 > m { bad(label($3) " is beyond " m) }
	$3 > 0 && !$5 { bad(label($3) " has no diff") }
	$3 in seen { bad(label($3) " twice") }
	{ seen[$3] = 1 }
	END {
		if (!found && m > 0)
			for (i = 1; i <= m; i++)
				if (!(i in seen)) { print label(i) " is missing"; exit }
	}' "$tm_dir/version.tsv")
	[ -z "$tm_why" ] || usage_die "MBOX=$tm_box: $tm_why"
	tm_m=$(awk -F '\t' 'NR == 1 { print $4 }' "$tm_dir/version.tsv")
	[ "$tm_m" -le "${MAX_COMMITS:-50}" ] ||
		usage_die "MBOX=$tm_box: $tm_m patches, more than MAX_COMMITS=${MAX_COMMITS:-50} (raise it to measure them)"
	TM_TITLE=$(awk -F '\t' '$3 == 0 { print $6; exit }' "$tm_dir/version.tsv")
	[ -n "$TM_TITLE" ] ||
		TM_TITLE=$(awk -F '\t' '$3 == 1 { print $6 }' "$tm_dir/version.tsv")
	# the base: BASE=, else the series' base-commit: trailer, one
	tm_files=$(awk -F '\t' '{ print $1 ".msg"; print $1 ".patch" }' \
		"$tm_dir/version.tsv")
	if [ -n "${BASE:-}" ]; then
		TM_BASE=$(track_commit "$BASE") ||
			usage_die "BASE=$BASE: no commit of $TRACK_TOP$(track_shallow_hint)"
	else
		# shellcheck disable=SC2086 # file names of our own, no blanks
		tm_bases=$(sed -n 's/^base-commit: \([0-9a-f]\{40\}\)[[:space:]]*$/\1/p' \
			$tm_files | sort -u)
		case $tm_bases in
		'') usage_die "MBOX=$tm_box: no base-commit: trailer (git format-patch --base and b4 write one); give BASE=<the commit the series applies to>" ;;
		*"$nl"*) usage_die "MBOX=$tm_box: its patches name different base commits; give BASE=" ;;
		esac
		TM_BASE=$(track_commit "$tm_bases") ||
			usage_die "MBOX=$tm_box: its base-commit $(printf '%.12s' "$tm_bases") is not in $TRACK_TOP$(track_shallow_hint) (fetch it, or give BASE=)"
	fi
	# applied in our clone, one patch at a time, so that a patch that
	# does not apply is named; on a failure nothing stays applied
	track_clone
	track_am --abort >/dev/null 2>&1
	git -C "$TRACK_SRC" checkout -q -f --detach "$TM_BASE" ||
		die "cannot check out $TM_BASE in $TRACK_SRC"
	: >"$tm_dir/series.tsv"
	tm_i=0
	while IFS="$(printf '\t')" read -r tm_mail _ tm_n _ _ tm_subj; do
		[ "$tm_n" -gt 0 ] || continue
		tm_i=$((tm_i + 1))
		if ! track_am -q "$tm_mail" >"$tm_dir/am.err" 2>&1; then
			track_am --abort >/dev/null 2>&1
			git -C "$TRACK_SRC" checkout -q -f --detach "$TM_BASE"
			tm_err=$(grep -m 1 '^error: ' "$tm_dir/am.err" ||
				head -n 1 "$tm_dir/am.err")
			usage_die "MBOX=$tm_box: $(track_mbox_label "$tm_v" "$tm_n" "$tm_m" "$tm_subj" | cut -c1-100): does not apply to $(printf '%.12s' "$TM_BASE"): $(printf '%s' "$tm_err" | track_printable | cut -c1-160)"
		fi
		printf '%s\t%s/%s\t%s\n' "$tm_i" "$tm_n" "$tm_m" "$tm_subj" \
			>>"$tm_dir/series.tsv"
	done <"$tm_dir/version.tsv"
	TM_HEAD=$(git -C "$TRACK_SRC" rev-parse HEAD) ||
		die "no HEAD in $TRACK_SRC after git am"
}
