package ops

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// infraFamily runs the cloud, infrastructure-as-code, cluster and
// container rules; it reports whether x was one of them.
func (k *checker) infraFamily(x cmdCtx) bool {
	switch x.name {
	case "aws":
		k.aws(x)
	case "kubectl":
		k.kubectl(x)
	case "helm":
		k.helm(x)
	case "terraform":
		k.terraform(x)
	case "terragrunt":
		k.terragrunt(x)
	case "pulumi":
		k.pulumi(x)
	case "cdk":
		k.destroyVerb(x, "destroy")
	case "serverless":
		k.destroyVerb(x, "remove")
	case "sam", "eksctl":
		k.destroyVerb(x, "delete")
	case "docker":
		k.docker(x)
	case "docker-compose":
		k.compose(x, 0)
	case "gcloud", "az", "doctl":
		k.cloudDelete(x)
	case "gsutil":
		k.gsutil(x)
	case "heroku", "fly", "vercel", "netlify":
		k.paas(x)
	default:
		return false
	}
	return true
}

// infraAsk reports a destructive infrastructure operation.
func (k *checker) infraAsk(x cmdCtx, rule, why string) {
	k.ask(x, rule, catInfra, why,
		"Ask the user before deleting infrastructure; to look, use the read-only verbs (get, list, describe, plan)")
	k.protect("")
}

// commandWords returns the subcommand words as written followed by the
// operands: the command path of CLIs whose catalog entry lists only some
// of their subcommands (aws SERVICE OPERATION, gcloud GROUP … VERB).
func commandWords(x cmdCtx) []string {
	out := append([]string(nil), x.inv.SubNames...)
	for _, w := range x.operands() {
		out = append(out, w.Value)
	}
	return out
}

// at returns ws[i], or "".
func at(ws []string, i int) string {
	if i < len(ws) {
		return ws[i]
	}
	return ""
}

// aws: delete-*, terminate-*, purge-* operations, s3 rm --recursive and
// s3 rb --force; s3 sync --delete warns. --dry-run / --dryrun pass.
func (k *checker) aws(x cmdCtx) {
	if x.has("dry-run", "generate-cli-skeleton") {
		return
	}
	ws := commandWords(x)
	service, op := at(ws, 0), at(ws, 1)
	if service == "sqs" && strings.HasPrefix(op, "delete-message") {
		return // consuming a queue: the message was processed
	}
	if service == "iam" {
		k.awsIAM(x, op)
	}
	switch {
	case service == "s3" && op == "rm" && x.has("recursive"):
		k.infraAsk(x, "infra.cloud-delete", "aws s3 rm --recursive deletes every object under the prefix, and S3 has no undo")
	case service == "s3" && op == "rb" && x.has("force"):
		k.infraAsk(x, "infra.cloud-delete", "aws s3 rb --force deletes the bucket with every object in it")
	case service == "s3" && op == "sync" && x.has("delete"):
		k.warn(x, "infra.s3-sync-delete", catInfra,
			"aws s3 sync --delete deletes destination objects that are not in the source",
			"Check the destination with --dryrun first")
	case strings.HasPrefix(op, "delete-"), strings.HasPrefix(op, "terminate-"),
		strings.HasPrefix(op, "purge-"), strings.HasPrefix(op, "batch-delete-"):
		k.infraAsk(x, "infra.cloud-delete", "aws "+service+" "+op+" deletes cloud resources, and most cannot be restored")
	}
}

// awsIAM: creating access keys or login profiles, and attaching
// administrator policies, hand out cloud credentials or rights.
func (k *checker) awsIAM(x cmdCtx, op string) {
	grant := false
	switch op {
	case "create-access-key", "create-login-profile", "update-login-profile", "create-service-specific-credential":
		grant = true
	case "attach-user-policy", "attach-role-policy", "attach-group-policy", "put-user-policy", "put-role-policy", "put-group-policy":
		for _, w := range x.args {
			if strings.Contains(strings.ToLower(w.Value), "administratoraccess") || strings.Contains(w.Value, `"Action":"*"`) ||
				strings.Contains(w.Value, `"Action": "*"`) {
				grant = true
			}
		}
	}
	if grant {
		k.infraAsk(x, "infra.iam-grant", "aws iam "+op+" creates a cloud credential or grants administrator rights")
	}
}

// kubeDataKind reports resource kinds whose deletion takes data or a
// whole environment with it.
func kubeDataKind(kind string) bool {
	switch kind {
	case "namespace", "namespaces", "ns", "persistentvolume", "persistentvolumes", "pv",
		"persistentvolumeclaim", "persistentvolumeclaims", "pvc", "customresourcedefinition",
		"customresourcedefinitions", "crd", "crds", "node", "nodes", "no":
		return true
	}
	return false
}

// kubectl: delete of namespaces, volumes, CRDs or nodes, or of --all /
// --all-namespaces. A dry run passes. (What kubectl exec runs is a
// command of its own.)
func (k *checker) kubectl(x cmdCtx) {
	if x.sub(0) != "delete" {
		return
	}
	if o, ok := x.inv.Last("dry-run"); ok {
		if v := x.inv.Value(o).Value; v != "none" && v != "false" {
			return
		}
	}
	all := x.has("all", "all-namespaces")
	kind := ""
	for _, r := range strings.Split(x.operand(0), ",") {
		r, _, _ = strings.Cut(r, "/")
		r, _, _ = strings.Cut(strings.ToLower(r), ".")
		if kubeDataKind(r) {
			kind = r
		}
	}
	switch {
	case kind != "":
		k.infraAsk(x, "infra.kubectl-delete", "deleting a "+kind+" takes everything in it (workloads, volumes, data) with it")
	case all:
		k.infraAsk(x, "infra.kubectl-delete", "kubectl delete --all / --all-namespaces deletes every matching resource at once")
	}
}

// helm: uninstall removes a release's resources; it can be reinstalled, so
// it warns.
func (k *checker) helm(x cmdCtx) {
	switch x.sub(0) {
	case "uninstall", "delete", "del", "un":
		if !x.has("dry-run") {
			k.warn(x, "infra.helm-uninstall", catInfra,
				"helm uninstall removes every resource of the release",
				"Make sure this is the release you mean")
		}
	}
}

// terraform, tofu: destroy, and apply -destroy; then the state changes.
func (k *checker) terraform(x cmdCtx) {
	if x.has("help") {
		return
	}
	sub := x.sub(0)
	destroy := sub == "destroy"
	if o, ok := x.inv.Last("destroy"); ok && sub != "plan" {
		v := x.inv.Value(o).Value
		destroy = destroy || !o.HasValue || v == "true" || v == "1"
	}
	if destroy {
		k.infraAsk(x, "infra.destroy", x.cmd.Name+" destroy deletes every resource the configuration manages")
		return
	}
	k.terraformState(x, []string{sub, x.sub(1)})
}

// terragrunt passes its operands to terraform: destroy anywhere among
// them (terragrunt run-all destroy), apply -destroy, and the state
// changes.
func (k *checker) terragrunt(x cmdCtx) {
	ws := commandWords(x)
	apply := false
	for _, w := range ws {
		switch w {
		case "destroy":
			k.infraAsk(x, "infra.destroy", "terragrunt destroy deletes every resource the configuration manages")
			return
		case "apply":
			apply = true
		}
	}
	if o, ok := x.inv.Last("destroy"); ok && apply {
		if v := x.inv.Value(o).Value; !o.HasValue || v == "true" || v == "1" {
			k.infraAsk(x, "infra.destroy", "terragrunt apply -destroy deletes every resource the configuration manages")
			return
		}
	}
	k.terraformState(x, ws)
}

// terraformState: state rm / state push and workspace delete drop what
// terraform knows of real resources; apply -replace destroys and
// recreates one (a database loses its data). ws are the command words.
func (k *checker) terraformState(x cmdCtx, ws []string) {
	verb, sub := at(ws, 0), at(ws, 1)
	switch {
	case verb == "state" && (sub == "rm" || sub == "push" || sub == "replace-provider"):
		k.infraAsk(x, "infra.state-change", x.cmd.Name+" state "+sub+" changes what terraform knows of real resources; lost state orphans them")
	case verb == "workspace" && sub == "delete":
		k.infraAsk(x, "infra.state-change", x.cmd.Name+" workspace delete drops the workspace's state, orphaning its resources")
	case verb == "apply" && len(x.values("replace")) > 0:
		k.infraAsk(x, "infra.destroy", x.cmd.Name+" apply -replace destroys the resource and creates a new one; its data does not come back")
	}
}

// pulumi: destroy / down, and stack rm.
func (k *checker) pulumi(x cmdCtx) {
	if x.has("preview-only") {
		return
	}
	switch sub := x.sub(0); {
	case sub == "destroy", sub == "down", sub == "dn":
		k.infraAsk(x, "infra.destroy", "pulumi destroy deletes every resource of the stack")
	case sub == "stack" && (x.sub(1) == "rm" || x.sub(1) == "remove"):
		k.infraAsk(x, "infra.destroy", "pulumi stack rm deletes the stack and its state")
	}
}

// destroyVerb: a deploy tool whose subcommand verb tears a whole stack
// down (cdk destroy, serverless remove, sam delete, eksctl delete).
func (k *checker) destroyVerb(x cmdCtx, verb string) {
	if x.sub(0) == verb {
		k.infraAsk(x, "infra.destroy", x.cmd.Name+" "+verb+" tears down the deployed stack and its resources")
	}
}

// docker, podman, nerdctl: system prune / reset, volume rm / prune, rm -f
// of a dynamic list or --all, compose down -v, and run/create handing the
// container the host. (What exec and run run inside is a command of its
// own.)
func (k *checker) docker(x cmdCtx) {
	name := x.cmd.Name
	switch sub := x.sub(0); sub {
	case "system":
		if verb := x.sub(1); verb == "prune" || verb == "reset" {
			k.infraAsk(x, "infra.container-prune", name+" system "+verb+" deletes stopped containers, images, networks and, with --volumes, the data volumes")
		}
	case "volume":
		if verb := x.sub(1); verb == "rm" || verb == "remove" || verb == "prune" {
			k.infraAsk(x, "infra.volume-delete", name+" volume "+verb+" deletes the data stored in the volumes")
		}
	case "rm", "remove":
		k.containerRemove(x)
	case "container":
		switch x.sub(1) {
		case "rm", "remove":
			k.containerRemove(x)
		case "run", "create":
			k.containerEscape(x)
		}
	case "compose":
		k.compose(x, 1)
	case "run", "create":
		k.containerEscape(x)
	}
}

// containerRemove: rm --force of a list only known at run time, or --all.
func (k *checker) containerRemove(x cmdCtx) {
	if x.has("force") && anyDynamic(x.operands()) || x.has("all") {
		k.infraAsk(x, "infra.container-delete", "it force-removes every container it is given, running ones included, from a list only known at run time")
	}
}

// containerEscape: --privileged, --pid=host, or a mount of the host's root
// or of the container engine's socket hand the container the host.
func (k *checker) containerEscape(x cmdCtx) {
	why := ""
	for _, o := range x.inv.Opts {
		v := x.inv.Value(o).Value
		switch {
		case o.Name == "privileged" && (!o.HasValue || v == "true"):
			why = "--privileged gives the container full access to the host's devices and kernel"
		case o.Name == "pid" && v == "host":
			why = "--pid=host lets the container see and signal every process of the host"
		}
	}
	for _, e := range x.cmd.Effects {
		if e.Kind != shell.Mounts {
			continue
		}
		switch e.Path {
		case "/":
			why = "it mounts the host's whole file system into the container, where anything can change or delete it"
		case "/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock":
			why = "it mounts the container engine's socket, which controls the host as root"
		}
	}
	if why != "" {
		k.infraAsk(x, "infra.container-escape", why)
	}
}

// compose: down -v deletes the project's volumes; i is the index of the
// compose subcommand word (1 under docker compose, 0 for docker-compose).
func (k *checker) compose(x cmdCtx, i int) {
	if x.sub(i) == "down" && x.has("volumes") {
		k.infraAsk(x, "infra.volume-delete", "compose down --volumes deletes the project's named volumes and the data in them")
	}
}

// cloudDelete: gcloud, az and doctl name the delete verb as a word
// ("gcloud projects delete", "az group delete", "az storage blob
// delete-batch"); gcloud storage rm --recursive.
func (k *checker) cloudDelete(x cmdCtx) {
	ws := commandWords(x)
	for _, v := range ws {
		if v == "delete" || strings.HasPrefix(v, "delete-") {
			k.infraAsk(x, "infra.cloud-delete", x.cmd.Name+" "+v+" deletes cloud resources, and most cannot be restored")
			return
		}
	}
	if x.name == "gcloud" && at(ws, 0) == "storage" && at(ws, 1) == "rm" && x.has("recursive") {
		k.infraAsk(x, "infra.cloud-delete", "gcloud storage rm --recursive deletes every object under the path")
	}
}

// gsutil: rm -r (or -a, every version) deletes every object under the
// path.
func (k *checker) gsutil(x cmdCtx) {
	if x.sub(0) == "rm" && x.has("recursive", "all-versions") {
		k.infraAsk(x, "infra.cloud-delete", "gsutil rm -r deletes every object under the path")
	}
}

// paas: heroku apps:destroy / pg:reset, fly … destroy, vercel rm, netlify
// sites:delete.
func (k *checker) paas(x cmdCtx) {
	first, second := x.operand(0), x.operand(1)
	hit := false
	switch x.name {
	case "heroku":
		switch first {
		case "apps:destroy", "addons:destroy", "pg:reset", "destroy":
			hit = true
		}
	case "fly":
		hit = first == "destroy" || second == "destroy" || second == "delete"
	case "vercel":
		hit = first == "rm" || first == "remove" || (first == "project" && (second == "rm" || second == "remove"))
	case "netlify":
		hit = first == "sites:delete"
	}
	if hit {
		k.infraAsk(x, "infra.cloud-delete", x.cmd.Name+" "+strings.TrimSpace(first+" "+second)+" deletes the app or its data for good")
	}
}
