package org.hapticsd.server.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringReader;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.PhysicsWorld;
import org.junit.jupiter.api.Test;

/**
 * The tool meets dynamic bodies with the penalty spring unless the file says otherwise (docs/scenes.md,
 * "contactModes"): the scene builder gives the tool the body mode PENALTY before the file's entries, which all
 * override it; a scene whose contact mode is {@code none} keeps the tool out of every contact.
 */
class ToolContactDefaultTest {

    private static final String BODIES = """
        bodies:
          - name: floor
            shape: {type: box, halfExtents: [0.1, 0.1, 0.01]}
            position: [0.0, 0.0, -0.01]
          - name: cube
            motion: dynamic
            massKg: 0.1
            shape: {type: box, halfExtents: [0.02, 0.02, 0.02]}
            position: [0.0, 0.0, 0.02]
          - name: ball
            motion: dynamic
            massKg: 0.1
            shape: {type: sphere, radiusM: 0.02}
            position: [0.1, 0.0, 0.02]
        """;

    /** Modes of (tool, cube), (tool, ball), (cube, floor), (tool, floor) for a scene with these extra lines. */
    private static ContactMode[] modes(String extra) throws Exception {
        SceneSpec spec = new SceneLoader().parse("test.yaml", new StringReader("name: t\n" + extra + BODIES));
        BuiltScene scene = SceneBuilder.build(spec);
        PhysicsWorld world = scene.haptic().world();
        int tool = scene.haptic().toolBody();
        int floor = scene.bodyIndices()[0];
        int cube = scene.bodyIndices()[1];
        int ball = scene.bodyIndices()[2];
        return new ContactMode[] {world.contactMode(tool, cube), world.contactMode(tool, ball),
            world.contactMode(cube, floor), world.contactMode(tool, floor)};
    }

    @Test
    void theToolPressesDynamicBodiesWithItsSpringByDefault() throws Exception {
        ContactMode[] m = modes("");
        assertEquals(ContactMode.PENALTY, m[0], "tool / cube");
        assertEquals(ContactMode.PENALTY, m[1], "tool / ball");
        assertEquals(ContactMode.LCP, m[2], "the bodies among themselves keep the scene's mode");
        assertEquals(ContactMode.PENALTY, m[3], "walls as ever");
    }

    @Test
    void everyEntryOfTheFileOverridesTheDefault() throws Exception {
        ContactMode[] toolLcp = modes("contactModes:\n  - {body: tool, mode: lcp}\n");
        assertEquals(ContactMode.LCP, toolLcp[0]);
        assertEquals(ContactMode.LCP, toolLcp[1]);

        ContactMode[] pair = modes("contactModes:\n  - {pair: [tool, ball], mode: impulse}\n");
        assertEquals(ContactMode.PENALTY, pair[0]);
        assertEquals(ContactMode.IMPULSE, pair[1]);

        ContactMode[] body = modes("contactModes:\n  - {body: cube, mode: lcp}\n");
        assertEquals(ContactMode.LCP, body[0], "a body entry is the later setting for its pair with the tool");
        assertEquals(ContactMode.PENALTY, body[1]);
    }

    @Test
    void aSceneWithoutContactsKeepsTheToolOutOfThemToo() throws Exception {
        ContactMode[] m = modes("contact:\n  mode: none\n");
        assertEquals(ContactMode.NONE, m[0]);
        assertEquals(ContactMode.NONE, m[1]);
        assertEquals(ContactMode.NONE, m[3]);
    }
}
