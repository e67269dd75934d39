import java.util.*;
import org.apache.kafka.coordinator.group.api.streams.assignor.*;
import org.apache.kafka.coordinator.group.streams.assignor.*;
public class Adapter {
    @SuppressWarnings("unchecked")
    static Map<String, TreeSet<String>[]> assign(List<Gen.M> present, List<String> subIds, Map<String, Integer> parts, Map<String, Boolean> stateful, int standbys) {
        Map<String, MemberMetadataAndStateImpl> members = new HashMap<>();
        for (Gen.M m : present) {
            Map<String, Map<Integer, Long>> off = new HashMap<>();
            for (Map.Entry<String, Long> e : m.offsets.entrySet()) { int i = e.getKey().lastIndexOf('_'); off.computeIfAbsent(e.getKey().substring(0, i), k -> new HashMap<>()).put(Integer.parseInt(e.getKey().substring(i + 1)), e.getValue()); }
            members.put(m.id, new MemberMetadataAndStateImpl(Optional.empty(), Optional.empty(), m.process, Map.of(), Gen.compact(m.active), Gen.compact(m.standby), Map.of(), off, Map.of()));
        }
        AssignmentConfigs cfg = new AssignmentConfigs() { public int numStandbyReplicas() { return standbys; } public List<String> rackAwareAssignmentTags() { return List.of(); } };
        GroupSpecImpl spec = new GroupSpecImpl(members, cfg);
        TopologyDescriber d = new TopologyDescriber() {
            public List<String> subtopologies() { return subIds; }
            public int maxNumInputPartitions(String s) { return parts.get(s); }
            public boolean isStateful(String s) { return stateful.get(s); }
        };
        GroupAssignment ga = new StickyTaskAssignor().assign(spec, d);
        Map<String, TreeSet<String>[]> r = new HashMap<>();
        for (Map.Entry<String, MemberAssignment> e : ga.members().entrySet()) r.put(e.getKey(), new TreeSet[]{Gen.expand(e.getValue().activeTasks()), Gen.expand(e.getValue().standbyTasks())});
        return r;
    }
}
