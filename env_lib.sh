# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# What moves the numbers besides the code under test that user space
# can read, added to a results file as it is collected (doc/output.rst),
# after the module's runtime: line:
#
#   platform: cpufreq_governor=NAME|mixed|none boost=0|1|mixed|none
#             smt=STATE|none
#   mitigations: NAME=STATE ... (cpu/vulnerabilities), or none
#   cmdline: the kernel command line
#   boot_id: the kernel's boot_id (a UUID, new at every boot), or
#            unavailable: the loads of one boot share its offset, and
#            bench-compare counts boots (doc/comparing.rst)
#
#   env_collect FILE [ROOT]   FILE (the module's results) with the lines
#   env_lines [ROOT]          the lines alone
#
# ROOT is where proc/ and sys/ are read from ("": the machine's).  A
# sysfs value is its first line with blanks turned into "_", one token.
# POSIX sh; runs under busybox.

# The first line of FILE as one token; fails if it has none.
env_token() {	# file
	[ -r "$1" ] || return 1
	e_tok=$(sed -n '1{s/[[:space:]]/_/g;p;}' "$1" 2>/dev/null)
	[ -n "$e_tok" ] && printf '%s' "$e_tok"
}

# The token of cpuN/REL all CPUs agree on, "mixed" when they differ,
# "none" when none has it.  A subshell that globs (callers set -f).
env_all_cpus() (	# root rel
	set +f
	e_seen=
	for e_file in "$1"/sys/devices/system/cpu/cpu[0-9]*/"$2"; do
		e_v=$(env_token "$e_file") || continue
		[ -z "$e_seen" ] || [ "$e_seen" = "$e_v" ] ||
			{ printf mixed; return; }
		e_seen=$e_v
	done
	printf '%s' "${e_seen:-none}"
)

# cpufreq's global boost switch, else intel_pstate's inverse one, else
# the CPUs' own (amd-pstate).
env_boost() {	# root
	e_cpu=$1/sys/devices/system/cpu
	env_token "$e_cpu/cpufreq/boost" && return
	if e_v=$(env_token "$e_cpu/intel_pstate/no_turbo"); then
		case $e_v in 0) printf 1 ;; *) printf 0 ;; esac
		return
	fi
	env_all_cpus "$1" cpufreq/boost
}

# Each file of cpu/vulnerabilities as NAME=STATE, sorted in the C
# locale (a glob sorts in the user's); a subshell that globs.
env_mitigations() (	# root
	set +f
	e_list=$(
		for e_file in "$1"/sys/devices/system/cpu/vulnerabilities/*; do
			[ -f "$e_file" ] || continue
			e_v=$(env_token "$e_file") || e_v=unreadable
			printf '%s=%s\n' "${e_file##*/}" "$e_v"
		done | LC_ALL=C sort | tr '\n' ' '
	)
	e_list=${e_list% }
	printf '%s' "${e_list:-none}"
)

# The kernel's boot_id, 8-4-4-4-12 lowercase hex digits as the kernel
# writes it, else "unavailable".
env_boot_id() {	# root
	e_id=$(env_token "$1/proc/sys/kernel/random/boot_id") || e_id=
	if printf '%s\n' "$e_id" |
		grep -Eqx '[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}'; then
		printf '%s' "$e_id"
	else
		printf unavailable
	fi
}

env_lines() {	# [root]
	e_root=${1:-}
	printf 'platform: cpufreq_governor=%s boost=%s smt=%s\n' \
		"$(env_all_cpus "$e_root" cpufreq/scaling_governor)" \
		"$(env_boost "$e_root")" \
		"$(env_token "$e_root/sys/devices/system/cpu/smt/control" ||
			printf none)"
	printf 'mitigations: %s\n' "$(env_mitigations "$e_root")"
	if [ -r "$e_root/proc/cmdline" ]; then
		# one line, no blanks around it
		printf 'cmdline: %s\n' "$(tr '\n' ' ' <"$e_root/proc/cmdline" |
			sed 's/^[[:space:]]*//; s/[[:space:]]*$//')"
	else
		printf 'cmdline: unavailable\n'
	fi
	printf 'boot_id: %s\n' "$(env_boot_id "$e_root")"
}

# FILE with the lines after its runtime: line; fails if FILE cannot be
# read.  The lines reach awk through the environment, never as code.
env_collect() {	# file [root]
	ENV_LINES=$(env_lines "${2:-}") awk '{ print }
		$1 == "runtime:" && !done {
			print ENVIRON["ENV_LINES"]
			done = 1
		}' "$1"
}
