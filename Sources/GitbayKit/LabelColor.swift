import Foundation

/// The label chip colour rule shared with the iOS client, so both draw the same colour for a label.
///
/// A valid stored `#rrggbb` is used lowercased, with its relative luminance (in linear light) clamped
/// to 0.12–0.28 so chips stay legible on light and dark backgrounds; otherwise the colour is picked
/// from a fixed palette by the FNV-1a hash of the name, so an uncoloured label is stable everywhere.
public enum LabelColor {
    /// The eight fallback colours, indexed by `fnv1a32(name) % 8`.
    public static let palette = [
        "#0969da", "#1a7f37", "#9a6700", "#cf222e", "#8250df", "#b93a86", "#0b6c80", "#bf5b16",
    ]

    /// The lowest relative luminance a stored colour is drawn with.
    public static let minimumLuminance = 0.12
    /// The highest relative luminance a stored colour is drawn with.
    public static let maximumLuminance = 0.28

    /// The colour to draw for a label, as lowercase `#rrggbb`.
    public static func display(name: String, stored: String?) -> String {
        if let stored, let rgb = parse(stored) {
            return format(clamped(rgb))
        }
        return palette[Int(fnv1a32(name) % UInt32(palette.count))]
    }

    /// The 32-bit FNV-1a hash of the UTF-8 bytes of `text`.
    public static func fnv1a32(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }

    /// The WCAG relative luminance of an sRGB colour given as `#rrggbb`, or `nil` if it is not one.
    public static func luminance(_ color: String) -> Double? {
        parse(color).map { luminance(linear: $0.map(linearize)) }
    }

    /// Parses exactly `#` plus six hex digits into 0–1 sRGB channels.
    private static func parse(_ color: String) -> [Double]? {
        guard color.hasPrefix("#"), color.utf8.count == 7, let value = UInt32(color.dropFirst(), radix: 16) else {
            return nil
        }
        return [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF].map { Double($0) / 255 }
    }

    /// Moves a colour into the luminance band in linear light: too dark mixes toward white, too light
    /// scales toward black, which keeps the hue and sends pure black and white to mid greys.
    private static func clamped(_ rgb: [Double]) -> [Double] {
        let linear = rgb.map(linearize)
        let current = luminance(linear: linear)
        let adjusted: [Double]
        if current < minimumLuminance {
            let mix = (minimumLuminance - current) / (1 - current)
            adjusted = linear.map { $0 + mix * (1 - $0) }
        } else if current > maximumLuminance {
            let scale = maximumLuminance / current
            adjusted = linear.map { $0 * scale }
        } else {
            return rgb
        }
        return adjusted.map(delinearize)
    }

    private static func luminance(linear: [Double]) -> Double {
        0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    private static func linearize(_ channel: Double) -> Double {
        channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
    }

    private static func delinearize(_ channel: Double) -> Double {
        channel <= 0.003_130_8 ? channel * 12.92 : 1.055 * pow(channel, 1 / 2.4) - 0.055
    }

    private static func format(_ rgb: [Double]) -> String {
        "#"
            + rgb.map { channel in
                let byte = Int((min(max(channel, 0), 1) * 255).rounded())
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
    }
}
