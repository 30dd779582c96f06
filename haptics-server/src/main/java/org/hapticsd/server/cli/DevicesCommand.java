package org.hapticsd.server.cli;

import com.fazecast.jSerialComm.SerialPort;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.hapticsd.device.link.LinkAddress;
import org.hapticsd.device.link.LinkProbe;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hapticsd devices}: the serial ports this machine has, and with {@code --probe} (or ports named on the
 * command line) which of them answer the device link handshake. Probing writes a 0x00 and HELLO frames to each
 * port, which a device of another kind may not expect, so listing alone never writes anything.
 *
 * <p>Exit 0 whatever is found: no ports and no answers are results, not errors.
 */
@Command(name = "devices", mixinStandardHelpOptions = true,
    description = "List serial ports; with --probe or PORT arguments, ask each for the device handshake (HELLO/INFO).")
final class DevicesCommand implements Callable<Integer> {
    /** Five HELLOs at the spec's 100 ms resend interval: enough for a device that is still starting up. */
    static final int DEFAULT_TIMEOUT_MS = 500;
    private static final int MAX_TIMEOUT_MS = 60_000;

    @ParentCommand
    HapticsdCommand parent;

    @Option(names = "--probe", description = "Probe every listed port (writes HELLO frames to each).")
    boolean probe;

    @Option(names = "--baud", paramLabel = "B",
        description = "Baud rate for probing serial ports. Default: " + LinkAddress.DEFAULT_BAUD + ".")
    Integer baud;

    @Option(names = "--timeout-ms", paramLabel = "MS",
        description = "How long to wait for each port's INFO. Default: " + DEFAULT_TIMEOUT_MS + ".")
    Integer timeoutMs;

    @Parameters(paramLabel = "PORT", arity = "0..*",
        description = "Ports to probe instead of the list: a path (/dev/ttyACM0, /dev/pts/3, a symlink), "
            + "serial:PORT[:BAUD] or tcp:HOST:PORT.")
    List<String> ports = new ArrayList<>();

    @Override
    public Integer call() {
        int rate = baud == null ? LinkAddress.DEFAULT_BAUD : baud;
        if (rate <= 0) {
            throw new UsageException("--baud must be > 0, got " + rate);
        }
        int waitMs = timeoutMs == null ? DEFAULT_TIMEOUT_MS : timeoutMs;
        if (waitMs <= 0 || waitMs > MAX_TIMEOUT_MS) {
            throw new UsageException("--timeout-ms must be 1.." + MAX_TIMEOUT_MS + ", got " + waitMs);
        }
        List<String> labels = new ArrayList<>(ports);
        List<LinkAddress> targets = new ArrayList<>();
        for (String port : ports) {
            targets.add(address(port, rate));
        }
        PrintWriter out = parent.out();
        if (targets.isEmpty()) {
            SerialPort[] found = SerialPort.getCommPorts();
            if (found.length == 0) {
                out.println("no serial ports found");
            }
            for (SerialPort port : found) {
                String path = port.getSystemPortPath();
                out.printf(Locale.ROOT, "%-20s %s%n", path, port.getPortDescription());
                if (probe) {
                    labels.add(path);
                    targets.add(new LinkAddress(LinkAddress.Kind.SERIAL, path, rate));
                }
            }
            out.flush();
        }
        for (int i = 0; i < targets.size(); i++) {
            LinkProbe.Result result = LinkProbe.probe(targets.get(i), TimeUnit.MILLISECONDS.toNanos(waitMs));
            out.println(labels.get(i) + ": " + describe(result));
            out.flush();
        }
        return Main.EXIT_OK;
    }

    /** A bare name or path is a serial port at {@code --baud}; {@code serial:} and {@code tcp:} are addresses. */
    private static LinkAddress address(String port, int rate) {
        if (LinkAddress.isLinkAddress(port)) {
            try {
                return LinkAddress.parse(port);
            } catch (IllegalArgumentException e) {
                throw new UsageException("PORT '" + port + "': " + e.getMessage());
            }
        }
        if (port.isEmpty()) {
            throw new UsageException("PORT: empty port name");
        }
        return new LinkAddress(LinkAddress.Kind.SERIAL, port, rate);
    }

    static String describe(LinkProbe.Result result) {
        if (!result.answered()) {
            return result.error();
        }
        String rates = result.supportedRatesHz().stream().map(String::valueOf).collect(Collectors.joining("/"));
        String device = String.format(Locale.ROOT, "%s, firmware %s, %d DoF sensed / %d actuated, max force %.2f N"
                + " (continuous %.2f N), rates %s Hz", result.deviceName(), result.firmware(), result.sensedDof(),
            result.actuatedDof(), result.maxForceN(), result.maxContinuousForceN(), rates);
        if (result.error() != null) {
            return device + "; " + result.error();
        }
        return device + ", default " + result.selectedRateHz() + " Hz, protocol " + result.protocolVersion();
    }
}
