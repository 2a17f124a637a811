#!/usr/bin/env bash
# Make sure every Debian package of scripts/packages.txt is installed: as
# root, install the missing ones; otherwise print the apt-get line and fail.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
missing=()
while read -r pkg; do
	case $pkg in ''|'#'*) continue ;; esac
	dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null |
		grep -q '^install ok installed$' || missing+=("$pkg")
done < "$top/scripts/packages.txt"
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages; as root run:" >&2
	echo "  apt-get update && $line" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
$line
