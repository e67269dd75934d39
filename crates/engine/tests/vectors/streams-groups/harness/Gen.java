import java.nio.file.*;
import java.util.*;

/** Generates random streams-groups vectors by running Kafka's StickyTaskAssignor (via Adapter). */
public class Gen {
    static Random rnd;
    static String memberId() { byte[] b = new byte[16]; rnd.nextBytes(b); return Base64.getUrlEncoder().withoutPadding().encodeToString(b); }
    static String processId() { return new UUID(rnd.nextLong(), rnd.nextLong()).toString(); }

    static class M { String id, process; TreeSet<String> active = new TreeSet<>(), standby = new TreeSet<>(); TreeMap<String, Long> offsets = new TreeMap<>(); M(String i, String p) { id = i; process = p; } }

    public static void main(String[] args) throws Exception {
        String label = args[0]; Path out = Paths.get(args[1]); int count = Integer.parseInt(args[2]); long seed = Long.parseLong(args[3]);
        boolean offsets = args.length > 4 && args[4].equals("offsets");
        Files.createDirectories(out);
        for (int c = 0; c < count; c++) {
            rnd = new Random(seed * 1000 + c);
            int subs = 1 + rnd.nextInt(4);
            List<String> subIds = new ArrayList<>(); Map<String, Integer> parts = new HashMap<>(); Map<String, Boolean> stateful = new HashMap<>();
            for (int s = 0; s < subs; s++) { String id = String.valueOf(rnd.nextInt(4) == 0 ? s + 9 : s); subIds.add(id); parts.put(id, 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 32)); stateful.put(id, rnd.nextInt(3) > 0); }
            Collections.sort(subIds);
            int standbys = rnd.nextInt(3);
            List<M> present = new ArrayList<>();
            StringBuilder steps = new StringBuilder();
            int maxP = Integer.getInteger("maxp", 12); int procs = 2 + rnd.nextInt(maxP - 1);
            List<String> joinJson = new ArrayList<>();
            for (int p = 0; p < procs; p++) { String pid = processId(); int t = 1 + rnd.nextInt(4); for (int i = 0; i < t; i++) { M m = new M(memberId(), pid); present.add(m); joinJson.add(jm(m)); } }
            steps.append("{\"op\": \"join\", \"members\": [" + String.join(", ", joinJson) + "]}");
            int assigns = 2 + rnd.nextInt(5);
            for (int a = 0; a < assigns; a++) {
                if (a > 0) {
                    int changes = 1 + rnd.nextInt(3);
                    for (int ch = 0; ch < changes; ch++) {
                        List<String> procIds = new ArrayList<>(); for (M m : present) if (!procIds.contains(m.process)) procIds.add(m.process);
                        int kind = rnd.nextInt(6);
                        List<String> leaves = new ArrayList<>(); List<String> joins = new ArrayList<>();
                        if (kind == 0 && procIds.size() < maxP) { String pid = processId(); int t = 1 + rnd.nextInt(4); for (int i = 0; i < t; i++) { M m = new M(memberId(), pid); present.add(m); joins.add(jm(m)); } }
                        else if (kind == 1 && procIds.size() > 2) { String pid = procIds.get(rnd.nextInt(procIds.size())); for (Iterator<M> it = present.iterator(); it.hasNext();) { M m = it.next(); if (m.process.equals(pid)) { leaves.add("\"" + m.id + "\""); it.remove(); } } }
                        else if (kind == 2 || kind == 3) { // restart: leave then rejoin with new ids, same process
                            String pid = procIds.get(rnd.nextInt(procIds.size())); int t = 0; Map<String,Long> disk = new TreeMap<>();
                            for (Iterator<M> it = present.iterator(); it.hasNext();) { M m = it.next(); if (m.process.equals(pid)) { leaves.add("\"" + m.id + "\""); it.remove(); t++; long o = 1 + rnd.nextInt(1000); for (String x : m.active) disk.put(x, o); for (String x : m.standby) disk.put(x, rnd.nextInt(1000) + 0L); } }
                            if (kind == 3 && t < 4 && rnd.nextBoolean()) t++;
                            List<M> fresh = new ArrayList<>();
                            for (int i = 0; i < t; i++) { M m = new M(memberId(), pid); fresh.add(m); joins.add(jm(m)); }
                            if (offsets) for (Map.Entry<String, Long> e : disk.entrySet()) if (rnd.nextInt(3) > 0) fresh.get(rnd.nextInt(fresh.size())).offsets.put(e.getKey(), e.getValue());
                            present.addAll(fresh);
                        } else if (kind == 4) { // add a thread
                            String pid = procIds.get(rnd.nextInt(procIds.size())); M m = new M(memberId(), pid); present.add(m); joins.add(jm(m));
                        } else { // remove or replace a thread
                            if (present.size() > 2) { M m = present.remove(rnd.nextInt(present.size())); leaves.add("\"" + m.id + "\""); if (rnd.nextBoolean()) { M r = new M(memberId(), m.process); present.add(r); joins.add(jm(r)); } }
                        }
                        if (!leaves.isEmpty()) steps.append(",\n    {\"op\": \"leave\", \"members\": [" + String.join(", ", leaves) + "]}");
                        if (!joins.isEmpty()) steps.append(",\n    {\"op\": \"join\", \"members\": [" + String.join(", ", joins) + "]}");
                    }
                }
                // offsets for members that keep reporting, occasionally
                if (offsets) for (M m : present) if (rnd.nextInt(5) == 0) { List<String> all = allTasks(subIds, parts); m.offsets.put(all.get(rnd.nextInt(all.size())), (long) rnd.nextInt(50)); }
                Map<String, TreeSet<String>[]> result = Adapter.assign(present, subIds, parts, stateful, standbys);
                StringBuilder in = new StringBuilder();
                for (int i = 0; i < present.size(); i++) { M m = present.get(i); if (i > 0) in.append(",\n      "); in.append("{\"member_id\": \"" + m.id + "\", \"process_id\": \"" + m.process + "\", \"previous_active\": " + arr(m.active) + ", \"previous_standby\": " + arr(m.standby)); if (!m.offsets.isEmpty()) { in.append(", \"task_offsets\": {"); int k = 0; for (Map.Entry<String, Long> e : m.offsets.entrySet()) { if (k++ > 0) in.append(", "); in.append("\"" + e.getKey() + "\": " + e.getValue()); } in.append("}"); } in.append("}"); }
                StringBuilder ex = new StringBuilder();
                for (int i = 0; i < present.size(); i++) { M m = present.get(i); TreeSet<String>[] r = result.get(m.id); if (i > 0) ex.append(",\n      "); ex.append("\"" + m.id + "\": {\"active\": " + arr(r[0]) + ", \"standby\": " + arr(r[1]) + "}"); m.active = r[0]; m.standby = r[1]; }
                steps.append(",\n    {\"op\": \"assign\", \"input\": {\"members\": [\n      " + in + "]},\n     \"expect\": {\"members\": {\n      " + ex + "}}}");
                if (offsets) for (M m : present) m.offsets.clear();
            }
            StringBuilder topo = new StringBuilder();
            for (int s = 0; s < subIds.size(); s++) { String id = subIds.get(s); if (s > 0) topo.append(", "); topo.append("{\"subtopology\": \"" + id + "\", \"partitions\": " + parts.get(id) + ", \"stateful\": " + stateful.get(id) + "}"); }
            String name = "gen-" + seed + "-" + c;
            String json = "{\"format\": \"rebalance-conformance/1\", \"family\": \"streams-groups\", \"assignor\": \"sticky\", \"kafka\": \"" + label + "\", \"kafka_versions\": [\"" + label + "\"],\n  \"name\": \"" + name + "\", \"config\": {\"num_standby_replicas\": " + standbys + "},\n  \"topology\": [" + topo + "],\n  \"steps\": [\n    " + steps + "\n  ]\n}\n";
            Files.writeString(out.resolve(name + ".json"), json);
        }
    }
    static List<String> allTasks(List<String> subIds, Map<String, Integer> parts) { List<String> r = new ArrayList<>(); for (String s : subIds) for (int p = 0; p < parts.get(s); p++) r.add(s + "_" + p); return r; }
    static String jm(M m) { return "{\"member_id\": \"" + m.id + "\", \"process_id\": \"" + m.process + "\"}"; }
    static String arr(Set<String> s) { List<String> q = new ArrayList<>(); for (String x : s) q.add("\"" + x + "\""); return "[" + String.join(", ", q) + "]"; }
    static Map<String, Set<Integer>> compact(Set<String> tasks) { Map<String, Set<Integer>> r = new HashMap<>(); for (String t : tasks) { int i = t.lastIndexOf('_'); r.computeIfAbsent(t.substring(0, i), k -> new HashSet<>()).add(Integer.parseInt(t.substring(i + 1))); } return r; }
    static TreeSet<String> expand(Map<String, Set<Integer>> m) { TreeSet<String> r = new TreeSet<>(); for (Map.Entry<String, Set<Integer>> e : m.entrySet()) for (int p : e.getValue()) r.add(e.getKey() + "_" + p); return r; }
}
