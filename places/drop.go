package places

import "strings"

// Drop reports whether a URL's host (lower case, no port) and path lead
// to a service that holds what is sent for someone else to collect: an
// anonymous file drop or paste site (transfer.sh, file.io, 0x0.st,
// termbin, pastebin), a chat webhook (Discord and Slack webhooks, a
// Telegram bot, Teams), or a request catcher made for inspecting what a
// client sends (webhook.site, requestbin, pipedream, interactsh and
// Burp Collaborator names). what names it for messages. These are where
// exfiltration write-ups send data (ATT&CK T1567, T1048); ordinary
// development seldom posts local files or command output there.
func Drop(host, urlPath string) (what string, ok bool) {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	under := func(d string) bool { return host == d || subdomain(host, d) }
	p := strings.ToLower(urlPath)
	switch {
	case (under("discord.com") || under("discordapp.com")) && strings.HasPrefix(p, "/api/webhooks"):
		return "a Discord webhook", true
	case host == "hooks.slack.com":
		return "a Slack webhook", true
	case host == "api.telegram.org" && strings.HasPrefix(p, "/bot"):
		return "a Telegram bot", true
	case under("webhook.office.com") || strings.HasSuffix(host, ".logic.azure.com") && strings.Contains(p, "/workflows/"):
		return "a Microsoft Teams webhook", true
	}
	for _, d := range []string{
		// file drops and paste sites
		"transfer.sh", "file.io", "0x0.st", "bashupload.com", "temp.sh", "oshi.at", "tmpfiles.org", "catbox.moe",
		"gofile.io", "pixeldrain.com", "keep.sh", "x0.at", "uguu.se", "filebin.net", "pastebin.com", "paste.ee",
		"hastebin.com", "ix.io", "sprunge.us", "termbin.com", "dpaste.com", "dpaste.org", "paste.rs", "rentry.co",
		"privatebin.net", "controlc.com", "justpaste.it", "paste.c-net.org", "clbin.com", "anonfiles.com",
		// request catchers and out-of-band interaction services
		"webhook.site", "requestbin.net", "requestbin.com", "pipedream.net", "requestcatcher.com", "beeceptor.com",
		"hookbin.com", "postb.in", "requestrepo.com", "interact.sh", "oast.fun", "oast.pro", "oast.live",
		"oast.site", "oast.online", "oast.me", "burpcollaborator.net", "oastify.com", "canarytokens.com",
		"dnslog.cn", "ceye.io", "mockbin.org", "ptsv2.com", "ptsv3.com",
	} {
		if under(d) {
			return d + " (a drop for data sent from elsewhere)", true
		}
	}
	return "", false
}
