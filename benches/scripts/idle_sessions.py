"""What an idle HTTP session costs the release binary: its resident memory grows
by how much per session that only initializes (with or without
notifications/initialized)?

    python3 benches/scripts/idle_sessions.py BINARY [BINARY...]

Each binary is started with --http on a free port; one session is opened first
(threads and buffers warm), then 999 more, and VmRSS is read before, right after
and 2 s later. The default --max-sessions is 1,000, so that is as many as fit.
"""
import json, subprocess, sys, time, urllib.request, socket
def free_port():
    s=socket.socket(); s.bind(("127.0.0.1",0)); p=s.getsockname()[1]; s.close(); return p
def rss(pid):
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS"): return int(l.split()[1])
def run(binary, n, notify):
    port=free_port()
    p=subprocess.Popen([binary,"--http",f"127.0.0.1:{port}","--insecure-no-auth"],stderr=subprocess.DEVNULL,stdout=subprocess.DEVNULL)
    url=f"http://127.0.0.1:{port}/mcp"
    for _ in range(100):
        try: urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz"); break
        except Exception: time.sleep(0.05)
    def post(body, sid=None):
        h={"content-type":"application/json","accept":"application/json, text/event-stream"}
        if sid: h["mcp-session-id"]=sid; h["mcp-protocol-version"]="2025-11-25"
        r=urllib.request.urlopen(urllib.request.Request(url,data=json.dumps(body).encode(),headers=h))
        r.read(); return r.headers.get("mcp-session-id")
    init={"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"idle","version":"1"}}}
    # warm up: one session and a call, so the runtime's threads and buffers exist
    sid=post(init); post({"jsonrpc":"2.0","method":"notifications/initialized"},sid)
    time.sleep(0.5)
    before=rss(p.pid); t=time.time()
    for i in range(n-1):
        sid=post(init)
        if notify: post({"jsonrpc":"2.0","method":"notifications/initialized"},sid)
    took=time.time()-t
    after=rss(p.pid); time.sleep(2); later=rss(p.pid)
    p.terminate(); p.wait()
    return (after-before)/(n-1), (later-before)/(n-1), took
for b in sys.argv[1:]:
    for notify in (False, True):
        a,l,t=run(b,1000,notify)
        print(f"{b.split('/')[2]:16s} notify={notify!s:5s} rss KiB/session right after {a:6.1f}, 2 s later {l:6.1f}  ({t:.1f}s for 999)")
