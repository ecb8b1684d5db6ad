python3 standin.py 18770 &
sleep 1
cfg=$(mktemp -d)
trap 'rm -rf "$cfg"' EXIT
echo standin-token > "$cfg/token"
export CLOUDSDK_CONFIG="$cfg" CLOUDSDK_CORE_DISABLE_PROMPTS=1 CLOUDSDK_CORE_PROJECT=ci-proj \
  CLOUDSDK_API_ENDPOINT_OVERRIDES_SECRETMANAGER=http://127.0.0.1:18770/ \
  CLOUDSDK_AUTH_ACCESS_TOKEN_FILE="$cfg/token" CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK=1
gcloud secrets versions access latest --secret=deploy-key
