import Foundation

/// A JSON object's key by name: yt-dlp's info dictionaries have hundreds of keys, of which Tandem
/// reads a few.
struct FieldKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Reading yt-dlp's fields leniently: a field of another type than expected (an extractor that
/// writes a number as a string, `has_drm` as `"maybe"`) reads as absent rather than failing the
/// whole answer, since one odd field must not make a page unplayable.
extension KeyedDecodingContainer where Key == FieldKey {
    func string(_ name: String) -> String? {
        (try? decodeIfPresent(String.self, forKey: FieldKey(name))) ?? nil
    }

    func number(_ name: String) -> Double? {
        guard let value = (try? decodeIfPresent(Double.self, forKey: FieldKey(name))) ?? nil, value.isFinite else { return nil }
        return value
    }

    /// An object of text values (`http_headers`); values that are not text are dropped.
    func strings(_ name: String) -> [String: String] {
        guard let nested = try? nestedContainer(keyedBy: FieldKey.self, forKey: FieldKey(name)) else { return [:] }
        var out: [String: String] = [:]
        for key in nested.allKeys { if let value = nested.string(key.stringValue) { out[key.stringValue] = value } }
        return out
    }

    func bool(_ name: String) -> Bool? {
        (try? decodeIfPresent(Bool.self, forKey: FieldKey(name))) ?? nil
    }

    /// An array whose elements that do not decode (a `null` entry of a playlist, an odd value) are dropped.
    func lossyArray<Element: Decodable>(_ name: String, of type: Element.Type) -> [Element]? {
        guard let items = (try? decodeIfPresent([Lossy<Element>].self, forKey: FieldKey(name))) ?? nil else { return nil }
        return items.compactMap(\.value)
    }
}

/// One element of a ``KeyedDecodingContainer/lossyArray(_:of:)``: nil when it does not decode.
private struct Lossy<Value: Decodable>: Decodable {
    let value: Value?
    init(from decoder: any Decoder) throws { value = try? Value(from: decoder) }
}
