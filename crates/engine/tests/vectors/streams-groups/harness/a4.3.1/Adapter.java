import java.util.*;
import org.apache.kafka.coordinator.group.streams.assignor.*;
public class Adapter {
    @SuppressWarnings("unchecked")
    static Map<String, TreeSet<String>[]> assign(List<Gen.M> present, List<String> subIds, Map<String, Integer> parts, Map<String, Boolean> stateful, int standbys) {
        Map<String, AssignmentMemberSpec> members = new HashMap<>();
        for (Gen.M m : present) members.put(m.id, new AssignmentMemberSpec(Optional.empty(), Optional.empty(), Gen.compact(m.active), Gen.compact(m.standby), Map.of(), m.process, Map.of(), Map.of(), Map.of()));
        GroupSpecImpl spec = new GroupSpecImpl(members, Map.of("num.standby.replicas", String.valueOf(standbys)));
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
