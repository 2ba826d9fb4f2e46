# Shared GTP loop for the deliberately broken test engines: answers the standard commands
# correctly and calls genmove_reply (defined by the including script) for genmove.
moves=0
while IFS= read -r line; do
  line=${line%$'\r'}
  set -- $line
  case "$1" in
    protocol_version) printf '= 2\n\n' ;;
    name) printf '= Broken\n\n' ;;
    version) printf '= 1\n\n' ;;
    list_games) printf '= Othello\n\n' ;;
    genmove)
      moves=$((moves + 1))
      genmove_reply "$2" ;;
    quit) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
