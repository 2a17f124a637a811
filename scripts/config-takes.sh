#!/usr/bin/env bash
# scripts/config-takes.sh FRAGMENT CONFIG: whether every option FRAGMENT
# sets or unsets survived olddefconfig in CONFIG. Names each one Kconfig
# dropped or kept, and exits 1 if there is any.
set -u
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$2" ||
			{ echo "Kconfig dropped: $line"; bad=1; } ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		! grep -q "^$opt=" "$2" ||
			{ echo "Kconfig kept: $(grep "^$opt=" "$2")"; bad=1; } ;;
	esac
done < "$1"
exit $bad
