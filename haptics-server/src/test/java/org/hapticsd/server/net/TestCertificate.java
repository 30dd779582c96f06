package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for 127.0.0.1 made with the JDK's keytool for one test class, written as the PEM files
 * {@code run --tls-cert/--tls-key} take; nothing secret lives in the repository.
 *
 * @param files       the PEM certificate and PKCS#8 key
 * @param certificate the certificate, for a client to trust
 */
record TestCertificate(StreamServerConfig.Tls files, Certificate certificate) {
    private static final char[] PASSWORD = "test-only".toCharArray();

    /** Makes the key pair and certificate in {@code dir}; valid for two days. */
    static TestCertificate make(Path dir) throws Exception {
        Path store = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
            "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
            "-keystore", store.toString(), "-storepass", new String(PASSWORD))
            .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, keytool.waitFor(), "keytool: " + output);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD);
        }
        Certificate certificate = keys.getCertificate("server");
        Path cert = dir.resolve("server.crt");
        Path key = dir.resolve("server.key");
        Files.writeString(cert, pem("CERTIFICATE", certificate.getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", keys.getKey("server", PASSWORD).getEncoded()));
        return new TestCertificate(new StreamServerConfig.Tls(cert, key), certificate);
    }

    /** A client context that trusts this certificate and nothing else. */
    SSLContext trustingContext() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate);
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
            + "\n-----END " + type + "-----\n";
    }
}
