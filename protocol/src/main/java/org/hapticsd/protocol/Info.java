package org.hapticsd.protocol;

import java.nio.charset.StandardCharsets;

/**
 * INFO, device → host, the answer to {@link Hello}: the chosen protocol version and what the device can do.
 * Its layout is frozen for every protocol version, and it is always framed with header version 1.
 *
 * <pre>
 * offset size type    field
 * 0      1    u8      selectedVersion       highest version both sides speak; 0 = none (then STATUS follows)
 * 1      1    u8      sensedDof             degrees of freedom measured, 1..6
 * 2      1    u8      actuatedDof           degrees of freedom actuated, 0..6
 * 3      1    u8      selectedRateIndex     STATE/FORCE rate the device will run, 125·2^i Hz (3 = 1000 Hz); 0xFF none
 * 4      1    u8      firmwareMajor
 * 5      1    u8      firmwareMinor
 * 6      2    u16     firmwarePatch
 * 8      12   f32[3]  workspaceMinM         x, y, z corner of the reachable box, metres, device frame
 * 20     12   f32[3]  workspaceMaxM         x, y, z opposite corner
 * 32     4    f32     maxForceN             peak force
 * 36     4    f32     maxContinuousForceN   force sustainable without thermal limiting
 * 40     4    f32     nominalStiffnessNpm   stiffness the device renders stably at its nominal rate
 * 44     4    f32     nominalDampingNspm    damping, N·s/m
 * 48     2    u16     supportedRates        bit i set = 125·2^i Hz supported (bit 3 = 1000 Hz), bits 7-15 reserved
 * 50     1    u8      nameLength            0..32; larger is malformed
 * 51     1    u8      reserved              sent 0, ignored
 * 52     32   u8[32]  name                  ASCII, first nameLength bytes used, rest sent 0 and ignored
 * </pre>
 *
 * float32 throughout: these are ratings to a few significant digits.
 */
public final class Info extends Message {
    public static final int PAYLOAD_BYTES = 84;
    public static final int MAX_NAME_BYTES = 32;
    public static final int NO_RATE = 0xFF;

    private int selectedVersion = Frame.VERSION_1;
    private String rejection;
    private int sensedDof;
    private int actuatedDof;
    private int selectedRateIndex = NO_RATE;
    private int firmwareMajor;
    private int firmwareMinor;
    private int firmwarePatch;
    private final float[] workspaceMinM = new float[3];
    private final float[] workspaceMaxM = new float[3];
    private float maxForceN;
    private float maxContinuousForceN;
    private float nominalStiffnessNpm;
    private float nominalDampingNspm;
    private int supportedRates;
    private int nameLength;
    private final byte[] name = new byte[MAX_NAME_BYTES];

    @Override
    public MessageType type() {
        return MessageType.INFO;
    }

    public int selectedVersion() {
        return selectedVersion;
    }

    public int sensedDof() {
        return sensedDof;
    }

    public int actuatedDof() {
        return actuatedDof;
    }

    /** Index i of the selected rate 125·2^i Hz, or {@link #NO_RATE}. */
    public int selectedRateIndex() {
        return selectedRateIndex;
    }

    /** The selected rate in hertz, or 0 if none. */
    public int selectedRateHz() {
        return selectedRateIndex <= 6 ? 125 << selectedRateIndex : 0;
    }

    public Info setSelectedRateIndex(int selectedRateIndex) {
        this.selectedRateIndex = selectedRateIndex & 0xFF;
        return this;
    }

    public int firmwareMajor() {
        return firmwareMajor;
    }

    public int firmwareMinor() {
        return firmwareMinor;
    }

    public int firmwarePatch() {
        return firmwarePatch;
    }

    public float workspaceMinM(int axis) {
        return workspaceMinM[axis];
    }

    public float workspaceMaxM(int axis) {
        return workspaceMaxM[axis];
    }

    public float maxForceN() {
        return maxForceN;
    }

    public float maxContinuousForceN() {
        return maxContinuousForceN;
    }

    public float nominalStiffnessNpm() {
        return nominalStiffnessNpm;
    }

    public float nominalDampingNspm() {
        return nominalDampingNspm;
    }

    public int supportedRates() {
        return supportedRates;
    }

    /** True if bit {@code i} of supportedRates is set for {@code rateHz} = 125·2^i. */
    public boolean supportsRateHz(int rateHz) {
        for (int i = 0; i < 7; i++) {
            if (125 << i == rateHz) {
                return (supportedRates & (1 << i)) != 0;
            }
        }
        return false;
    }

    /** The name as a String; allocates, so call it at handshake, not per tick. */
    public String name() {
        return new String(name, 0, nameLength, StandardCharsets.US_ASCII);
    }

    public Info setVersionAndDof(int selectedVersion, int sensedDof, int actuatedDof) {
        this.selectedVersion = selectedVersion & 0xFF;
        this.sensedDof = sensedDof & 0xFF;
        this.actuatedDof = actuatedDof & 0xFF;
        return this;
    }

    public Info setFirmware(int major, int minor, int patch) {
        this.firmwareMajor = major & 0xFF;
        this.firmwareMinor = minor & 0xFF;
        this.firmwarePatch = patch & 0xFFFF;
        return this;
    }

    public Info setWorkspaceM(float minX, float minY, float minZ, float maxX, float maxY, float maxZ) {
        workspaceMinM[0] = minX;
        workspaceMinM[1] = minY;
        workspaceMinM[2] = minZ;
        workspaceMaxM[0] = maxX;
        workspaceMaxM[1] = maxY;
        workspaceMaxM[2] = maxZ;
        return this;
    }

    public Info setRatings(float maxForceN, float maxContinuousForceN, float nominalStiffnessNpm,
                           float nominalDampingNspm) {
        this.maxForceN = maxForceN;
        this.maxContinuousForceN = maxContinuousForceN;
        this.nominalStiffnessNpm = nominalStiffnessNpm;
        this.nominalDampingNspm = nominalDampingNspm;
        return this;
    }

    public Info setSupportedRates(int supportedRates) {
        this.supportedRates = supportedRates & 0xFFFF;
        return this;
    }

    /**
     * Sets the name from printable ASCII (0x20..0x7E), at most {@link #MAX_NAME_BYTES} characters.
     *
     * @throws IllegalArgumentException if the name is longer or not printable ASCII
     */
    public Info setName(CharSequence text) {
        if (text.length() > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("device name longer than " + MAX_NAME_BYTES + " characters");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                throw new IllegalArgumentException("device name must be printable ASCII");
            }
            name[i] = (byte) c;
        }
        java.util.Arrays.fill(name, text.length(), MAX_NAME_BYTES, (byte) 0);
        nameLength = text.length();
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset, int version) {
        LittleEndian.putU8(dst, offset, selectedVersion);
        LittleEndian.putU8(dst, offset + 1, sensedDof);
        LittleEndian.putU8(dst, offset + 2, actuatedDof);
        LittleEndian.putU8(dst, offset + 3, selectedRateIndex);
        LittleEndian.putU8(dst, offset + 4, firmwareMajor);
        LittleEndian.putU8(dst, offset + 5, firmwareMinor);
        LittleEndian.putU16(dst, offset + 6, firmwarePatch);
        for (int i = 0; i < 3; i++) {
            LittleEndian.putF32(dst, offset + 8 + 4 * i, workspaceMinM[i]);
            LittleEndian.putF32(dst, offset + 20 + 4 * i, workspaceMaxM[i]);
        }
        LittleEndian.putF32(dst, offset + 32, maxForceN);
        LittleEndian.putF32(dst, offset + 36, maxContinuousForceN);
        LittleEndian.putF32(dst, offset + 40, nominalStiffnessNpm);
        LittleEndian.putF32(dst, offset + 44, nominalDampingNspm);
        LittleEndian.putU16(dst, offset + 48, supportedRates);
        LittleEndian.putU8(dst, offset + 50, nameLength);
        LittleEndian.putU8(dst, offset + 51, 0);
        for (int i = 0; i < MAX_NAME_BYTES; i++) {
            dst[offset + 52 + i] = i < nameLength ? name[i] : 0;
        }
    }

    @Override
    boolean readPayload(byte[] src, int offset, int version) {
        selectedVersion = LittleEndian.getU8(src, offset);
        sensedDof = LittleEndian.getU8(src, offset + 1);
        actuatedDof = LittleEndian.getU8(src, offset + 2);
        selectedRateIndex = LittleEndian.getU8(src, offset + 3);
        firmwareMajor = LittleEndian.getU8(src, offset + 4);
        firmwareMinor = LittleEndian.getU8(src, offset + 5);
        firmwarePatch = LittleEndian.getU16(src, offset + 6);
        for (int i = 0; i < 3; i++) {
            workspaceMinM[i] = LittleEndian.getF32(src, offset + 8 + 4 * i);
            workspaceMaxM[i] = LittleEndian.getF32(src, offset + 20 + 4 * i);
        }
        maxForceN = LittleEndian.getF32(src, offset + 32);
        maxContinuousForceN = LittleEndian.getF32(src, offset + 36);
        nominalStiffnessNpm = LittleEndian.getF32(src, offset + 40);
        nominalDampingNspm = LittleEndian.getF32(src, offset + 44);
        supportedRates = LittleEndian.getU16(src, offset + 48);
        int length = LittleEndian.getU8(src, offset + 50);
        if (length > MAX_NAME_BYTES) {
            return reject("nameLength above 32");
        }
        for (int i = 0; i < length; i++) {
            int c = LittleEndian.getU8(src, offset + 52 + i);
            if (c < 0x20 || c > 0x7E) {
                return reject("a name byte outside printable ASCII 0x20..0x7E");
            }
        }
        nameLength = length;
        System.arraycopy(src, offset + 52, name, 0, MAX_NAME_BYTES);
        java.util.Arrays.fill(name, nameLength, MAX_NAME_BYTES, (byte) 0);
        // "No common version" carries nothing else the host reads; every other INFO describes a device the host will
        // size its safety limits from, so a field outside its range makes the frame malformed (spec 2.4, 4.2).
        rejection = null;
        return selectedVersion == 0 || describesADevice();
    }

    private boolean reject(String why) {
        rejection = why;
        return false;
    }

    @Override
    String rejection() {
        return rejection;
    }

    /** The ranges of section 4.2 for a session's INFO. */
    private boolean describesADevice() {
        if (sensedDof < 1 || sensedDof > 6) {
            return reject("sensedDof outside 1..6");
        }
        if (actuatedDof > 6) {
            return reject("actuatedDof above 6");
        }
        if ((selectedRateIndex > 6 && selectedRateIndex != NO_RATE) || (supportedRates & ~0x7F) != 0) {
            return reject("selectedRateIndex outside 0..6 (or 0xFF), or supportedRates bits above 6");
        }
        for (int i = 0; i < 3; i++) {
            if (!Float.isFinite(workspaceMinM[i]) || !Float.isFinite(workspaceMaxM[i])) {
                return reject("a workspace bound not finite");
            }
            if (workspaceMaxM[i] < workspaceMinM[i]) {
                return reject("workspaceMaxM below workspaceMinM");
            }
        }
        if (!(Float.isFinite(maxForceN) && maxForceN > 0f)) {
            return reject("maxForceN not finite and > 0");
        }
        if (!(Float.isFinite(maxContinuousForceN) && maxContinuousForceN > 0f && maxContinuousForceN <= maxForceN)) {
            return reject("maxContinuousForceN not finite, > 0 and <= maxForceN");
        }
        if (!(Float.isFinite(nominalStiffnessNpm) && nominalStiffnessNpm >= 0f)) {
            return reject("nominalStiffnessNpm not finite and >= 0");
        }
        if (!(Float.isFinite(nominalDampingNspm) && nominalDampingNspm >= 0f)) {
            return reject("nominalDampingNspm not finite and >= 0");
        }
        return true;
    }
}
