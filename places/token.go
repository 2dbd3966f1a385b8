package places

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
)

// Service is a service that issues credentials and the hosts where they
// are used. The zero Service is "unknown".
type Service struct {
	// Name is the service's name for messages ("GitHub").
	Name string
	// Domains are the hosts its credentials are sent to, each standing
	// for itself and its subdomains.
	Domains []string
}

// Known reports whether s names a service.
func (s Service) Known() bool { return s.Name != "" }

// Serves reports whether host (a name or an address, any case, without
// port) is one of s's domains or a subdomain of one.
func (s Service) Serves(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, d := range s.Domains {
		if host == d || subdomain(host, d) {
			return true
		}
	}
	return false
}

// service returns the service with key k (the keys used below).
func service(k string) Service {
	switch k {
	case "aws":
		return Service{"AWS", []string{"amazonaws.com", "aws.amazon.com", "amazonaws.com.cn", "api.aws"}}
	case "github":
		return Service{"GitHub", []string{"github.com", "githubusercontent.com", "ghcr.io", "githubcopilot.com"}}
	case "gitlab":
		return Service{"GitLab", []string{"gitlab.com"}}
	case "slack":
		return Service{"Slack", []string{"slack.com"}}
	case "stripe":
		return Service{"Stripe", []string{"stripe.com"}}
	case "google":
		return Service{"Google", []string{"googleapis.com", "google.com", "googleusercontent.com"}}
	case "anthropic":
		return Service{"Anthropic", []string{"anthropic.com", "claude.ai"}}
	case "openai":
		return Service{"OpenAI", []string{"openai.com"}}
	case "azure-openai":
		return Service{"Azure OpenAI", []string{"openai.azure.com", "cognitiveservices.azure.com"}}
	case "azure":
		return Service{"Azure", []string{"azure.com", "windows.net", "microsoft.com", "microsoftonline.com", "azure.net"}}
	case "npm":
		return Service{"npm", []string{"npmjs.org", "npmjs.com"}}
	case "huggingface":
		return Service{"Hugging Face", []string{"huggingface.co", "hf.co"}}
	case "pypi":
		return Service{"PyPI", []string{"pypi.org", "pythonhosted.org"}}
	case "docker":
		return Service{"Docker Hub", []string{"docker.io", "docker.com"}}
	case "supabase":
		return Service{"Supabase", []string{"supabase.co", "supabase.com", "supabase.in"}}
	case "cloudflare":
		return Service{"Cloudflare", []string{"cloudflare.com"}}
	case "digitalocean":
		return Service{"DigitalOcean", []string{"digitalocean.com"}}
	case "vercel":
		return Service{"Vercel", []string{"vercel.com"}}
	case "netlify":
		return Service{"Netlify", []string{"netlify.com"}}
	case "heroku":
		return Service{"Heroku", []string{"heroku.com"}}
	case "sentry":
		return Service{"Sentry", []string{"sentry.io"}}
	case "datadog":
		return Service{"Datadog", []string{"datadoghq.com", "datadoghq.eu"}}
	case "twilio":
		return Service{"Twilio", []string{"twilio.com"}}
	case "sendgrid":
		return Service{"SendGrid", []string{"sendgrid.com", "sendgrid.net"}}
	case "mailgun":
		return Service{"Mailgun", []string{"mailgun.net", "mailgun.org"}}
	case "mistral":
		return Service{"Mistral", []string{"mistral.ai"}}
	case "groq":
		return Service{"Groq", []string{"groq.com"}}
	case "cohere":
		return Service{"Cohere", []string{"cohere.com", "cohere.ai"}}
	case "replicate":
		return Service{"Replicate", []string{"replicate.com"}}
	case "together":
		return Service{"Together AI", []string{"together.xyz", "together.ai"}}
	case "perplexity":
		return Service{"Perplexity", []string{"perplexity.ai"}}
	case "xai":
		return Service{"xAI", []string{"x.ai"}}
	case "deepseek":
		return Service{"DeepSeek", []string{"deepseek.com"}}
	case "openrouter":
		return Service{"OpenRouter", []string{"openrouter.ai"}}
	case "linear":
		return Service{"Linear", []string{"linear.app"}}
	case "notion":
		return Service{"Notion", []string{"notion.com", "notion.so"}}
	case "shopify":
		return Service{"Shopify", []string{"myshopify.com", "shopify.com"}}
	case "atlassian":
		return Service{"Atlassian", []string{"atlassian.net", "atlassian.com"}}
	case "databricks":
		return Service{"Databricks", []string{"databricks.com", "cloud.databricks.com", "azuredatabricks.net"}}
	case "postman":
		return Service{"Postman", []string{"getpostman.com", "postman.com"}}
	case "terraform":
		return Service{"HCP Terraform", []string{"app.terraform.io", "terraform.io"}}
	case "codecov":
		return Service{"Codecov", []string{"codecov.io"}}
	case "circleci":
		return Service{"CircleCI", []string{"circleci.com"}}
	case "doppler":
		return Service{"Doppler", []string{"doppler.com"}}
	case "grafana":
		return Service{"Grafana", []string{"grafana.net", "grafana.com"}}
	}
	return Service{}
}

// tokenKind is one credential shape: a pattern its issuer publishes,
// with a prefix ordinary text does not carry. markers are literal texts
// one of which every match holds, checked before the pattern runs.
type tokenKind struct {
	name, pattern, service string
	markers                []string
}

// tokenKinds are the credential shapes recognised, from the issuers'
// documentation of their token formats.
func tokenKinds() []tokenKind {
	return []tokenKind{
		{"an AWS access key id", `\b(AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`, "aws", []string{"AKIA", "ASIA", "ABIA", "ACCA"}},
		{"a GitHub token", `\b(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})`, "github", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}},
		{"a GitLab token", `\bgl(pat|dt|ptt|rt|cbt|oas|ft)-[A-Za-z0-9_-]{20,}`, "gitlab", []string{"gl"}},
		{"a Slack token", `\bxox[abposre]-[A-Za-z0-9-]{10,}`, "slack", []string{"xox"}},
		{"a Stripe secret key", `\b[sr]k_live_[A-Za-z0-9]{20,}`, "stripe", []string{"k_live_"}},
		{"a Google API key", `\bAIza[0-9A-Za-z_-]{35}`, "google", []string{"AIza"}},
		{"a Google OAuth access token", `\bya29\.[0-9A-Za-z_-]{20,}`, "google", []string{"ya29."}},
		{"an Anthropic API key", `\bsk-ant-(api|admin|oat|sid)[0-9]{2}-[A-Za-z0-9_-]{20,}`, "anthropic", []string{"sk-ant-"}},
		{"an OpenAI API key", `\bsk-(proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}`, "openai", []string{"sk-"}},
		{"an npm token", `\bnpm_[A-Za-z0-9]{36}\b`, "npm", []string{"npm_"}},
		{"a Hugging Face token", `\bhf_[A-Za-z0-9]{34,}`, "huggingface", []string{"hf_"}},
		{"a PyPI token", `\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}`, "pypi", []string{"pypi-"}},
		{"a Docker Hub token", `\bdckr_(pat|oat)_[A-Za-z0-9_-]{20,}`, "docker", []string{"dckr_"}},
		{"a DigitalOcean token", `\bdo[por]_v1_[a-f0-9]{64}\b`, "digitalocean", []string{"_v1_"}},
		{"a SendGrid API key", `\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b`, "sendgrid", []string{"SG."}},
		{"a Shopify token", `\bshp(at|ca|pa|ss)_[a-fA-F0-9]{32}\b`, "shopify", []string{"shp"}},
		{"an Atlassian API token", `\bATATT3[A-Za-z0-9_=-]{40,}`, "atlassian", []string{"ATATT3"}},
		{"a Databricks token", `\bdapi[a-f0-9]{32}\b`, "databricks", []string{"dapi"}},
		{"a Postman API key", `\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`, "postman", []string{"PMAK-"}},
		{"a Linear API key", `\blin_api_[A-Za-z0-9]{40}\b`, "linear", []string{"lin_api_"}},
		{"a Replicate token", `\br8_[A-Za-z0-9]{37}\b`, "replicate", []string{"r8_"}},
		{"a Groq API key", `\bgsk_[A-Za-z0-9]{52}\b`, "groq", []string{"gsk_"}},
		{"a Perplexity API key", `\bpplx-[A-Za-z0-9]{48}\b`, "perplexity", []string{"pplx-"}},
		{"an xAI API key", `\bxai-[A-Za-z0-9]{80}\b`, "xai", []string{"xai-"}},
		{"a Doppler token", `\bdp\.(pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`, "doppler", []string{"dp."}},
		{"a Grafana token", `\bglc_[A-Za-z0-9+/]{32,}={0,2}`, "grafana", []string{"glc_"}},
		{"a Sentry token", `\bsntry[su]_[A-Za-z0-9+/=_-]{40,}`, "sentry", []string{"sntry"}},
		{"an HCP Terraform token", `\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}`, "terraform", []string{".atlasv1."}},
		{"a private key", `-----BEGIN [A-Z ]*PRIVATE KEY-----`, "", []string{"-----BEGIN "}},
		{"a JSON Web Token", `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, "jwt", []string{"eyJ"}},
	}
}

var tokenREs = lazy[[]*regexp.Regexp]{build: func() []*regexp.Regexp {
	kinds := tokenKinds()
	out := make([]*regexp.Regexp, len(kinds))
	for i, k := range kinds {
		out[i] = regexp.MustCompile(k.pattern)
	}
	return out
}}

// Token reports the first credential-shaped token in s: what kind it is
// ("a GitHub token") and the service that issued it. A JSON Web Token's
// service is the host its "iss" claim names (unknown when it names
// none); a private key block has no service. Texts longer than 64 KiB are
// read up to that length.
func Token(s string) (kind string, svc Service, ok bool) {
	if len(s) > 64<<10 {
		s = s[:64<<10]
	}
	if !tokenHint(s) {
		return "", Service{}, false
	}
	kinds := tokenKinds()
	for i, re := range tokenREs.get() {
		if !containsAny(s, kinds[i].markers) {
			continue
		}
		m := re.FindString(s)
		if m == "" {
			continue
		}
		if kinds[i].service == "jwt" {
			return kinds[i].name, jwtIssuer(m), true
		}
		return kinds[i].name, service(kinds[i].service), true
	}
	return "", Service{}, false
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// tokenHint is a cheap first look: a token needs a run of at least 16
// letters and digits (or a key block's dashes).
func tokenHint(s string) bool {
	if strings.Contains(s, "-----BEGIN ") {
		return true
	}
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			run++
			if run >= 16 {
				return true
			}
			continue
		}
		run = 0
	}
	return false
}

// jwtIssuer reads the "iss" claim of a JSON Web Token: a URL or a host
// names its service; anything else leaves it unknown.
func jwtIssuer(tok string) Service {
	parts := strings.Split(tok, ".")
	if len(parts) < 2 {
		return Service{}
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return Service{}
	}
	var claims struct {
		Iss string `json:"iss"`
	}
	if json.Unmarshal(raw, &claims) != nil || claims.Iss == "" {
		return Service{}
	}
	host := claims.Iss
	if u, err := url.Parse(claims.Iss); err == nil && u.Host != "" {
		host = u.Hostname()
	}
	host = strings.ToLower(host)
	if !strings.Contains(host, ".") || strings.ContainsAny(host, " /:") {
		return Service{}
	}
	return Service{Name: host, Domains: []string{host}}
}

// SecretName reports whether a variable or key name looks like it holds
// a secret: it names a token, key, password, secret or credential
// (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD, OPENAI_API_KEY,
// SUPABASE_ANON_KEY). Names of public identifiers (…_KEY_ID,
// PUBLISHABLE_KEY, PUBLIC_KEY, …_URL) are not.
func SecretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range []string{"PUBLISHABLE", "PUBLIC_KEY", "KEY_ID", "_URL", "_HOST", "_ENDPOINT", "_REGION", "_PATH", "_FILE", "_DIR", "_USER", "_USERNAME", "_NAME", "_ID"} {
		if strings.HasSuffix(n, w) || w == "PUBLISHABLE" && strings.Contains(n, w) {
			return false
		}
	}
	for _, w := range []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASSPHRASE", "API_KEY", "APIKEY", "PRIVATE_KEY", "ACCESS_KEY", "CREDENTIAL", "AUTH_KEY", "_PAT", "ANON_KEY", "SERVICE_KEY", "SERVICE_ROLE_KEY", "MASTER_KEY", "LICENSE_KEY", "WEBHOOK", "DSN", "COOKIE", "SESSION"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return strings.HasSuffix(n, "_KEY") || strings.HasSuffix(n, "_PASS") || strings.HasSuffix(n, "_PWD")
}

// NameStem returns the service word a variable name starts with, after
// front-end framework prefixes (NEXT_PUBLIC_, VITE_, REACT_APP_, …):
// "SUPABASE" for NEXT_PUBLIC_SUPABASE_ANON_KEY. Two names with the same
// stem were configured for the same service (SUPABASE_URL beside
// SUPABASE_ANON_KEY).
func NameStem(name string) string {
	n := strings.ToUpper(name)
	for _, p := range []string{"NEXT_PUBLIC_", "VITE_", "REACT_APP_", "NUXT_PUBLIC_", "NUXT_", "EXPO_PUBLIC_", "PUBLIC_", "GATSBY_", "VUE_APP_"} {
		n = strings.TrimPrefix(n, p)
	}
	stem, _, _ := strings.Cut(n, "_")
	return stem
}

// NameService returns the service whose credential a variable or key of
// this name holds, when its name says (OPENAI_API_KEY: OpenAI,
// GITHUB_TOKEN and GH_TOKEN: GitHub, AWS_SECRET_ACCESS_KEY: AWS,
// NPM_TOKEN and NODE_AUTH_TOKEN: npm, HF_TOKEN: Hugging Face, …).
func NameService(name string) (Service, bool) {
	n := strings.ToUpper(name)
	switch n {
	case "NODE_AUTH_TOKEN":
		return service("npm"), true
	case "TWINE_PASSWORD", "UV_PUBLISH_TOKEN", "POETRY_PYPI_TOKEN_PYPI", "FLIT_PASSWORD":
		return service("pypi"), true
	case "CR_PAT":
		return service("github"), true
	case "CI_JOB_TOKEN":
		return service("gitlab"), true
	}
	if strings.HasPrefix(n, "AZURE_OPENAI") {
		return service("azure-openai"), true
	}
	if strings.HasPrefix(n, "TF_TOKEN_") || strings.HasPrefix(n, "TFE_") {
		return service("terraform"), true
	}
	k := ""
	switch NameStem(n) {
	case "AWS", "AMAZON":
		k = "aws"
	case "GITHUB", "GH", "GHCR":
		k = "github"
	case "GITLAB", "GL", "GLAB":
		k = "gitlab"
	case "SLACK":
		k = "slack"
	case "STRIPE":
		k = "stripe"
	case "GOOGLE", "GEMINI", "GCP", "GCLOUD", "FIREBASE", "YOUTUBE":
		k = "google"
	case "ANTHROPIC", "CLAUDE":
		k = "anthropic"
	case "OPENAI":
		k = "openai"
	case "AZURE", "ARM":
		k = "azure"
	case "NPM":
		k = "npm"
	case "HF", "HUGGINGFACE", "HUGGING":
		k = "huggingface"
	case "PYPI", "TESTPYPI":
		k = "pypi"
	case "DOCKER", "DOCKERHUB":
		k = "docker"
	case "SUPABASE":
		k = "supabase"
	case "CLOUDFLARE", "CF":
		k = "cloudflare"
	case "DIGITALOCEAN", "DO":
		k = "digitalocean"
	case "VERCEL":
		k = "vercel"
	case "NETLIFY":
		k = "netlify"
	case "HEROKU":
		k = "heroku"
	case "SENTRY":
		k = "sentry"
	case "DATADOG", "DD":
		k = "datadog"
	case "TWILIO":
		k = "twilio"
	case "SENDGRID":
		k = "sendgrid"
	case "MAILGUN":
		k = "mailgun"
	case "MISTRAL":
		k = "mistral"
	case "GROQ":
		k = "groq"
	case "COHERE", "CO":
		k = "cohere"
	case "REPLICATE":
		k = "replicate"
	case "TOGETHER":
		k = "together"
	case "PERPLEXITY", "PPLX":
		k = "perplexity"
	case "XAI", "GROK":
		k = "xai"
	case "DEEPSEEK":
		k = "deepseek"
	case "OPENROUTER":
		k = "openrouter"
	case "LINEAR":
		k = "linear"
	case "NOTION":
		k = "notion"
	case "SHOPIFY":
		k = "shopify"
	case "JIRA", "CONFLUENCE", "ATLASSIAN":
		k = "atlassian"
	case "DATABRICKS":
		k = "databricks"
	case "POSTMAN":
		k = "postman"
	case "CODECOV":
		k = "codecov"
	case "CIRCLECI", "CIRCLE":
		k = "circleci"
	case "DOPPLER":
		k = "doppler"
	case "GRAFANA":
		k = "grafana"
	}
	if k == "" {
		return Service{}, false
	}
	return service(k), true
}

// ProgramService returns the service whose credential a command-line
// client prints (gh auth token: GitHub; gcloud auth print-access-token:
// Google; aws configure get: AWS; az account get-access-token: Azure),
// by the client's program name.
func ProgramService(program string) (Service, bool) {
	k := ""
	switch program {
	case "gh":
		k = "github"
	case "glab":
		k = "gitlab"
	case "gcloud", "gsutil", "bq":
		k = "google"
	case "aws":
		k = "aws"
	case "az":
		k = "azure"
	case "heroku":
		k = "heroku"
	case "doctl":
		k = "digitalocean"
	case "vercel":
		k = "vercel"
	case "netlify":
		k = "netlify"
	case "npm":
		k = "npm"
	case "huggingface-cli", "hf":
		k = "huggingface"
	case "wrangler":
		k = "cloudflare"
	case "supabase":
		k = "supabase"
	}
	if k == "" {
		return Service{}, false
	}
	return service(k), true
}
